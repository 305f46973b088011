/* adbscope-power-page.c: battery, power and temperatures
 *
 * Nothing but chart cards: the template declares them by report path and
 * AdbscopePage keeps them drawn while the page is mapped.
 */
#include "config.h"

#include "adbscope-power-page.h"

struct _AdbscopePowerPage
{
  AdbscopePage parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopePowerPage, adbscope_power_page, ADBSCOPE_TYPE_PAGE)

static void
adbscope_power_page_class_init (AdbscopePowerPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-power-page.ui");
}

static void
adbscope_power_page_init (AdbscopePowerPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
