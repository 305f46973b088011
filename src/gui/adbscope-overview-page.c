/* adbscope-overview-page.c: the overview: small charts of everything with current values
 *
 * Chart cards (the template declares them by report path and AdbscopePage
 * keeps them drawn while the page is mapped), and under them the
 * screenshots of the same time window.
 */
#include "config.h"

#include "adbscope-overview-page.h"
#include "adbscope-screenshot-strip.h"

struct _AdbscopeOverviewPage
{
  AdbscopePage             parent_instance;

  AdbscopeScreenshotStrip *screenshot_strip;
};

G_DEFINE_FINAL_TYPE (AdbscopeOverviewPage, adbscope_overview_page, ADBSCOPE_TYPE_PAGE)

static void
adbscope_overview_page_update (AdbscopePage     *page,
                               AdbscopeDataView *view)
{
  AdbscopeOverviewPage *self = ADBSCOPE_OVERVIEW_PAGE (page);

  ADBSCOPE_PAGE_CLASS (adbscope_overview_page_parent_class)->update (page, view);
  adbscope_screenshot_strip_update (self->screenshot_strip, view);
}

static void
adbscope_overview_page_set_view (AdbscopePage     *page,
                                 AdbscopeDataView *view)
{
  AdbscopeOverviewPage *self = ADBSCOPE_OVERVIEW_PAGE (page);

  if (ADBSCOPE_PAGE_CLASS (adbscope_overview_page_parent_class)->set_view != NULL)
    ADBSCOPE_PAGE_CLASS (adbscope_overview_page_parent_class)->set_view (page, view);
  adbscope_screenshot_strip_update (self->screenshot_strip, view);
}

static void
adbscope_overview_page_class_init (AdbscopeOverviewPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  page_class->update = adbscope_overview_page_update;
  page_class->set_view = adbscope_overview_page_set_view;
  g_type_ensure (ADBSCOPE_TYPE_SCREENSHOT_STRIP);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-overview-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeOverviewPage, screenshot_strip);
}

static void
adbscope_overview_page_init (AdbscopeOverviewPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * adbscope_overview_page_get_screenshot_strip:
 *
 * Returns: (transfer none): the thumbnails under the charts
 */
AdbscopeScreenshotStrip *
adbscope_overview_page_get_screenshot_strip (AdbscopeOverviewPage *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_OVERVIEW_PAGE (self), NULL);
  return self->screenshot_strip;
}
