/* adbscope-test-asan.h: whether a test's process is built with
 * AddressSanitizer.  Under it RSS measures the sanitizer (its quarantine
 * keeps freed memory, its allocator keeps the peak): memory bounds are
 * checked in the plain build; what is bounded by count is checked in both.
 */
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ADBSCOPE_TEST_RSS_IS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADBSCOPE_TEST_RSS_IS_MEANINGFUL 0
#endif
#endif
#ifndef ADBSCOPE_TEST_RSS_IS_MEANINGFUL
#define ADBSCOPE_TEST_RSS_IS_MEANINGFUL 1
#endif
