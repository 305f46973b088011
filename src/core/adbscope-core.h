/* adbscope-core.h: umbrella header of the GTK-free core library */
#pragma once

#include "adbscope-types.h"
#include "adbscope-error.h"
#include "adbscope-series.h"
