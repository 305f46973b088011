/* adbscope-page.h: one page of the session view, drawn from an AdbscopeDataView */
#pragma once

#include <adwaita.h>

#include "adbscope-comparison.h"
#include "adbscope-data-view.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_PAGE (adbscope_page_get_type ())

G_DECLARE_DERIVABLE_TYPE (AdbscopePage, adbscope_page, ADBSCOPE, PAGE, AdwBin)

struct _AdbscopePageClass
{
  AdwBinClass parent_class;

  /* The view has something new to draw; only called while mapped. */
  void (*update)   (AdbscopePage     *self,
                    AdbscopeDataView *view);
  /* A new view (a new session), or NULL. */
  void (*set_view) (AdbscopePage     *self,
                    AdbscopeDataView *view);
  /* Another run to overlay on the charts the cards do not hold, or NULL. */
  void (*set_comparison) (AdbscopePage       *self,
                          AdbscopeComparison *comparison);

  gpointer padding[3];
};

AdbscopeDataView *adbscope_page_get_view     (AdbscopePage     *self);
void              adbscope_page_set_view     (AdbscopePage     *self,
                                              AdbscopeDataView *view);
guint             adbscope_page_get_n_updates (AdbscopePage    *self);
GPtrArray        *adbscope_page_list_cards   (AdbscopePage     *self);
void              adbscope_page_set_comparison (AdbscopePage       *self,
                                                AdbscopeComparison *comparison);

G_END_DECLS
