/* adbscope-assertion.h: `--assert 'PATH OP NUMBER'` over the report's own keys */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_ASSERT_LT,
  ADBSCOPE_ASSERT_LE,
  ADBSCOPE_ASSERT_GT,
  ADBSCOPE_ASSERT_GE,
  ADBSCOPE_ASSERT_EQ,
  ADBSCOPE_ASSERT_NE,
} AdbscopeAssertOp;

typedef struct
{
  char             *expression;   /* as the user wrote it */
  char             *path;
  AdbscopeAssertOp  op;
  double            threshold;
  /* after evaluation */
  gboolean          evaluated;
  gboolean          has_value;    /* FALSE when the report has null there: fails */
  double            value;
  gboolean          pass;
} AdbscopeAssertion;

AdbscopeAssertion *adbscope_assertion_parse     (const char         *expression,
                                                 GError            **error);
void               adbscope_assertion_free      (AdbscopeAssertion  *self);
const char        *adbscope_assert_op_to_string (AdbscopeAssertOp    op);
gboolean           adbscope_assertion_check_path (AdbscopeAssertion *self,
                                                  JsonNode          *report,
                                                  GError           **error);
gboolean           adbscope_assertion_evaluate  (AdbscopeAssertion  *self,
                                                 JsonNode           *report,
                                                 GError            **error);
JsonNode          *adbscope_report_lookup       (JsonNode           *report,
                                                 const char         *path);
const char        *adbscope_report_node_string  (JsonNode           *node);
void               adbscope_assertion_to_json   (AdbscopeAssertion  *self,
                                                 JsonBuilder        *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAssertion, adbscope_assertion_free)

G_END_DECLS
