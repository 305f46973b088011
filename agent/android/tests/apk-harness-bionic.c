/* apk-harness-bionic.c: stand-ins for Android's libc.so and liblog.so, so
 * that libadbscope-agent.so from the APK loads in a glibc process (the host
 * harness, apk-harness.c).  Built twice by check-apk.py harness: as
 * "libc.so" (glibc plus what bionic names differently: __errno, __assert2,
 * and getaddrinfo/freeaddrinfo with bionic's struct addrinfo, whose
 * ai_canonname comes before ai_addr) and, with -DLIBLOG, as "liblog.so".
 * The harness dlopen()s the library with RTLD_DEEPBIND, so its imports
 * find these before glibc's own.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LIBLOG

int __android_log_write (int prio, const char *tag, const char *text);

int
__android_log_write (int         prio,
                     const char *tag,
                     const char *text)
{
  return fprintf (stderr, "# log %d %s: %s\n", prio, tag, text);
}

#else

int  *__errno (void);
void  __assert2 (const char *file, int line, const char *function, const char *expr);

int *
__errno (void)
{
  return &errno;
}

void
__assert2 (const char *file,
           int         line,
           const char *function,
           const char *expr)
{
  fprintf (stderr, "# bionic assert: %s:%d %s: %s\n", file, line, function, expr);
  abort ();
}

struct bionic_addrinfo {
  int                     ai_flags;
  int                     ai_family;
  int                     ai_socktype;
  int                     ai_protocol;
  socklen_t               ai_addrlen;
  char                   *ai_canonname;
  struct sockaddr        *ai_addr;
  struct bionic_addrinfo *ai_next;
};

int  getaddrinfo (const char *node, const char *service, const struct addrinfo *hints,
                  struct addrinfo **res);
void freeaddrinfo (struct addrinfo *res);

/* Counted, so the harness can tell the library called this one. */
int apk_harness_getaddrinfo_calls;

int
getaddrinfo (const char             *node,
             const char             *service,
             const struct addrinfo  *bhints_,
             struct addrinfo       **bres_)
{
  int (*real) (const char *, const char *, const struct addrinfo *, struct addrinfo **) =
    (int (*) (const char *, const char *, const struct addrinfo *, struct addrinfo **))
      dlsym (RTLD_NEXT, "getaddrinfo");
  void (*real_free) (struct addrinfo *) = (void (*) (struct addrinfo *)) dlsym (RTLD_NEXT, "freeaddrinfo");
  const struct bionic_addrinfo *bhints = (const void *) bhints_;
  struct bionic_addrinfo **bres = (void *) bres_, *head = NULL, **tail = &head;
  struct addrinfo hints, *res = NULL, *ai;
  int rc;

  apk_harness_getaddrinfo_calls++;
  memset (&hints, 0, sizeof hints);
  if (bhints)
    {
      hints.ai_flags = bhints->ai_flags;
      hints.ai_family = bhints->ai_family;
      hints.ai_socktype = bhints->ai_socktype;
      hints.ai_protocol = bhints->ai_protocol;
    }
  rc = real (node, service, bhints ? &hints : NULL, &res);
  if (rc != 0)
    return rc;
  for (ai = res; ai; ai = ai->ai_next)
    {
      struct bionic_addrinfo *b = calloc (1, sizeof *b + ai->ai_addrlen);

      b->ai_flags = ai->ai_flags;
      b->ai_family = ai->ai_family;
      b->ai_socktype = ai->ai_socktype;
      b->ai_protocol = ai->ai_protocol;
      b->ai_addrlen = ai->ai_addrlen;
      b->ai_addr = (struct sockaddr *) (b + 1);
      memcpy (b->ai_addr, ai->ai_addr, ai->ai_addrlen);
      *tail = b;
      tail = &b->ai_next;
    }
  real_free (res);
  *bres = head;
  return 0;
}

void
freeaddrinfo (struct addrinfo *res_)
{
  struct bionic_addrinfo *b = (void *) res_;

  while (b)
    {
      struct bionic_addrinfo *next = b->ai_next;

      free (b);
      b = next;
    }
}

#endif
