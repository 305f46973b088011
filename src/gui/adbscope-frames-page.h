/* adbscope-frames-page.h: frame rate, frame times, janky frames and their causes */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_FRAMES_PAGE (adbscope_frames_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeFramesPage, adbscope_frames_page, ADBSCOPE, FRAMES_PAGE, AdbscopePage)

G_END_DECLS
