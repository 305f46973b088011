/* adbscope-compare.h: two reports side by side, and the regression gate */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  char    *path;
  double   max_pct;     /* allowed change, in percent of the base */
  int      direction;   /* +1: an increase is worse, -1: a decrease is */
} AdbscopeThreshold;

AdbscopeThreshold *adbscope_threshold_parse (const char         *text,
                                             GError            **error);
void               adbscope_threshold_free  (AdbscopeThreshold  *self);
gboolean           adbscope_threshold_check_path (AdbscopeThreshold *self,
                                                  JsonNode          *report,
                                                  GError           **error);
JsonNode          *adbscope_compare_reports (JsonNode           *base,
                                             JsonNode           *run,
                                             GPtrArray          *thresholds,
                                             guint              *n_regressions);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeThreshold, adbscope_threshold_free)

G_END_DECLS
