/* fuzz-parsers: libFuzzer target over the engine's parsers. */
#include "fuzz-parsers-body.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  return agent_fuzz_one (data, size);
}
