/* agent-bionic.h: what agent-jni.c needs from Android's libraries beyond
 * POSIX, declared here because the build has no NDK: it compiles with
 * glibc's headers (docs/agent.md, "How the APK is built").
 *
 * liblog's two functions and priorities, and getaddrinfo() with bionic's
 * struct addrinfo, whose ai_canonname comes before ai_addr (glibc's has
 * them the other way round).  Everything else agent-jni.c and the engine
 * pass to libc is the same in both (kernel ABI structs, plain ints).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <sys/socket.h>

enum {
  ANDROID_LOG_DEBUG = 3,
  ANDROID_LOG_INFO  = 4,
  ANDROID_LOG_WARN  = 5,
  ANDROID_LOG_ERROR = 6,
};

int __android_log_write (int prio, const char *tag, const char *text);

/* bionic's <netdb.h> */
struct agent_addrinfo {
  int                    ai_flags;
  int                    ai_family;
  int                    ai_socktype;
  int                    ai_protocol;
  socklen_t              ai_addrlen;
  char                  *ai_canonname;
  struct sockaddr       *ai_addr;
  struct agent_addrinfo *ai_next;
};

int  agent_getaddrinfo  (const char                   *node,
                         const char                   *service,
                         const struct agent_addrinfo  *hints,
                         struct agent_addrinfo       **res) __asm__ ("getaddrinfo");
void agent_freeaddrinfo (struct agent_addrinfo        *ai) __asm__ ("freeaddrinfo");
