/* agent-bionic-shim.c: the two names glibc's headers make the compiler
 * emit that bionic (Android's libc) calls differently.  Linked into
 * libadbscope-agent.so, hidden (the version script exports Java_* only).
 *
 *   errno          glibc: (*__errno_location ())  bionic: (*__errno ())
 *   assert()       glibc: __assert_fail ()        bionic: __assert2 ()
 *
 * SPDX-License-Identifier: MIT
 */
int  *__errno (void);
void  __assert2 (const char *file, int line, const char *function, const char *expr)
  __attribute__ ((noreturn));

int  *__errno_location (void);
void  __assert_fail (const char *expr, const char *file, unsigned int line, const char *function)
  __attribute__ ((noreturn));

int *
__errno_location (void)
{
  return __errno ();
}

void
__assert_fail (const char   *expr,
               const char   *file,
               unsigned int  line,
               const char   *function)
{
  __assert2 (file, (int) line, function, expr);
}
