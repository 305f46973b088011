/* adbscope-overview-page.c: the overview: small charts of everything with current values
 *
 * Nothing but chart cards: the template declares them by report path and
 * AdbscopePage keeps them drawn while the page is mapped.
 */
#include "config.h"

#include "adbscope-overview-page.h"

struct _AdbscopeOverviewPage
{
  AdbscopePage parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopeOverviewPage, adbscope_overview_page, ADBSCOPE_TYPE_PAGE)

static void
adbscope_overview_page_class_init (AdbscopeOverviewPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-overview-page.ui");
}

static void
adbscope_overview_page_init (AdbscopeOverviewPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
