/* adbscope-core.h: umbrella header of the GTK-free core library */
#pragma once

#include "adbscope-types.h"
#include "adbscope-error.h"
#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-device.h"
#include "adbscope-device-monitor.h"
#include "adbscope-shell.h"
#include "adbscope-series.h"
