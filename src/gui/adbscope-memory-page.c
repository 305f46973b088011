/* adbscope-memory-page.c: app memory by PSS category, RSS, system memory and pressure
 *
 * Nothing but chart cards: the template declares them by report path and
 * AdbscopePage keeps them drawn while the page is mapped.
 */
#include "config.h"

#include "adbscope-memory-page.h"

struct _AdbscopeMemoryPage
{
  AdbscopePage parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopeMemoryPage, adbscope_memory_page, ADBSCOPE_TYPE_PAGE)

static void
adbscope_memory_page_class_init (AdbscopeMemoryPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-memory-page.ui");
}

static void
adbscope_memory_page_init (AdbscopeMemoryPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
