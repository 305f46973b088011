#pragma once

#include <stddef.h>
#include <stdint.h>

int agent_fuzz_one (const uint8_t *data,
                    size_t         len);
