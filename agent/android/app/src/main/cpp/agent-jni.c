/* agent-jni.c: the agent app's logic, behind a Java shim kept as small as
 * JNI allows (agent/android/app/src/main/smali, docs/agent.md "Android app").
 *
 * The shim calls the Android APIs (VpnService.Builder, LinkProperties,
 * notifications); everything that decides is here, where the host harness
 * (agent/android/tests/apk-harness.c) runs it on Linux:
 *
 *  - the state line `dumpsys activity service …AgentVpnService` prints
 *    (docs/agent-protocol.md, "Control from the desktop"), with the setup
 *    error codes and their reasons;
 *  - the start plan: whether a START restarts the VPN (another package),
 *    is already served (the same package), routes IPv6 (only when the real
 *    network has a global IPv6 address) and routes the agent itself (the
 *    self test);
 *  - the capture sessions: each START that established a VPN is a session
 *    of its own that owns its TUN fd (detached from the
 *    ParcelFileDescriptor) and a native thread running the engine; the fd is
 *    closed only after the engine's loop returned, and a session replaced by
 *    a newer one never touches the newer one's state or TUN.  Stopping only
 *    asks the engine to stop: nothing waits on the caller's (main) thread;
 *    the next session's thread waits for the previous one to be gone (its
 *    abstract sockets must be free) before it starts its engine;
 *  - the platform callbacks: protect() through VpnService, the flow's owner
 *    and DNS through the API-29 helper object when there is one, else the
 *    watched app's uid and the real network's resolvers (dns_servers);
 *  - the self test: resolve HOST, one TCP connection through the VPN,
 *    `GET / HTTP/1.0`, its outcome on the state line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jni.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "adbscope-agent-engine.h"
#include "agent-bionic.h"

#ifndef ADBSCOPE_AGENT_VERSION
#error "ADBSCOPE_AGENT_VERSION (the project's version) comes from meson"
#endif

#define TAG            "adbscope-agent"
#define JNI_PREFIX(n)  Java_io_github_adbscope_agent_AgentVpnService_##n
#define MTU            10000

/* nativeEvent()'s events (AgentVpnService.smali has the same numbers). */
enum {
  EVENT_WAITING_CONSENT = 0,
  EVENT_CONSENT_DENIED  = 1,
  EVENT_SETUP_FAILED    = 2,
};

/* nativePlan()'s answer: a negative value means "establish nothing". */
enum {
  PLAN_IPV6      = 1 << 0,
  PLAN_ROUTE_SELF = 1 << 1,
};

typedef struct Session Session;
struct Session {
  /* Set once in nativeStart, read by the session's thread. */
  JavaVM     *vm;
  jobject     service;          /* global ref */
  jobject     helper;           /* global ref to the API-29 helper, or NULL */
  jmethodID   protect;
  jmethodID   owner_uid;
  jmethodID   resolve;
  jmethodID   ended;
  int         tun_fd;
  int         watched_uid;      /* the flows' owner below API 29, or -1 */
  char       *package;
  char       *token;
  char       *socket_name;
  char       *selftest;         /* HOST:PORT or NULL */
  char      **dns_servers;      /* NULL-terminated */
  Session    *previous;         /* joined by this session's thread, then freed */
  pthread_t   thread;
  JNIEnv     *env;              /* the session thread's, while attached */

  /* Under lock. */
  AdbscopeAgentEngine *engine;
  int         stop_requested;
  int         finished;         /* its engine's loop returned (or never ran) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Under lock: the newest session (NULL when none was started or it ended)
 * and what the state line says. */
static Session *current;
/* Under lock: the last session started, whose thread nobody joined yet
 * (the next session's thread joins it, then frees it). */
static Session *unjoined;
static char state[64] = "stopped";
static char state_package[256];
static char state_reason[512];
static char selftest_result[160];
/* Bumped by each START: a self test of an earlier one (its thread may
 * still be connecting) no longer writes the result. */
static unsigned int selftest_generation;

typedef struct {
  char         *spec;
  unsigned int  generation;
} SelftestJob;

static void
log_print (int         prio,
           const char *fmt,
           ...)
{
  char buf[512];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  __android_log_write (prio, TAG, buf);
}

static void
copy_str (char       *dst,
          size_t      size,
          const char *src)
{
  size_t n = src ? strlen (src) : 0;

  if (n >= size)
    n = size - 1;
  if (n)
    memcpy (dst, src, n);
  dst[n] = '\0';
}

/* Under lock.  @pkg NULL keeps the package. */
static void
set_state_locked (const char *new_state,
                  const char *pkg,
                  const char *reason)
{
  copy_str (state, sizeof state, new_state);
  if (pkg != NULL)
    copy_str (state_package, sizeof state_package, pkg);
  copy_str (state_reason, sizeof state_reason, reason);
}

static void
set_state (const char *new_state,
           const char *pkg,
           const char *reason)
{
  pthread_mutex_lock (&lock);
  set_state_locked (new_state, pkg, reason);
  pthread_mutex_unlock (&lock);
}

/* major × 10000 + minor × 100 + patch (docs/agent-protocol.md). */
static long
version_code (void)
{
  long part[3] = { 0, 0, 0 };
  const char *s = ADBSCOPE_AGENT_VERSION;
  int i;

  for (i = 0; i < 3 && *s; i++)
    {
      while (*s >= '0' && *s <= '9')
        part[i] = part[i] * 10 + (*s++ - '0');
      if (*s == '.')
        s++;
    }
  return part[0] * 10000 + part[1] * 100 + part[2];
}

/* The reason on the state line: bytes 0x21..0x7e except '%' as they are,
 * every other byte as %XX (docs/agent-protocol.md). */
static void
append_escaped (char       *out,
                size_t      size,
                const char *text)
{
  size_t n = strlen (out);
  const unsigned char *p;

  for (p = (const unsigned char *) text; *p && n + 4 < size; p++)
    {
      if (*p > 0x20 && *p < 0x7f && *p != '%')
        out[n++] = (char) *p;
      else
        n += (size_t) snprintf (out + n, size - n, "%%%02X", *p);
    }
  out[n] = '\0';
}

static int
starts_with (const char *s,
             const char *prefix)
{
  return s != NULL && strncmp (s, prefix, strlen (prefix)) == 0;
}

static int
contains_nocase (const char *s,
                 const char *word)
{
  size_t n = strlen (word), i;

  for (; s && *s; s++)
    {
      for (i = 0; i < n; i++)
        {
          char c = s[i];

          if (c >= 'A' && c <= 'Z')
            c = (char) (c - 'A' + 'a');
          if (c != word[i])
            break;
        }
      if (i == n)
        return 1;
    }
  return 0;
}

/* The state code for what establish() (or the Builder before it) threw,
 * from the exception's toString(): "CLASS" or "CLASS: MESSAGE". */
static const char *
setup_error_code (const char *exception)
{
  if (starts_with (exception, "android.content.pm.PackageManager$NameNotFoundException"))
    return "error:package_not_found";
  if (starts_with (exception, "java.lang.SecurityException"))
    {
      /* Another app's always-on VPN (with lockdown) or a device policy. */
      if (contains_nocase (exception, "always-on") || contains_nocase (exception, "always on")
          || contains_nocase (exception, "lockdown"))
        return "error:always_on_vpn";
      return "error:vpn_not_allowed";
    }
  if (starts_with (exception, "java.lang.IllegalStateException"))
    {
      if (contains_nocase (exception, "always-on") || contains_nocase (exception, "always on"))
        return "error:always_on_vpn";
      /* Not prepared: the consent was revoked, or another VPN app took it. */
      return "error:vpn_not_prepared";
    }
  return "error:vpn_setup_failed";
}

/* TRUE when one of @addresses ("ADDR" or "ADDR/PREFIX", as
 * LinkAddress.toString() gives them) is an IPv6 global unicast address
 * (2000::/3): only then can the app's IPv6 reach anything through us. */
static int
has_global_ipv6 (char **addresses)
{
  for (; addresses && *addresses; addresses++)
    {
      char buf[INET6_ADDRSTRLEN + 8];
      unsigned char a[16];
      char *slash;

      copy_str (buf, sizeof buf, *addresses);
      slash = strchr (buf, '/');
      if (slash)
        *slash = '\0';
      if (inet_pton (AF_INET6, buf, a) == 1 && (a[0] & 0xe0) == 0x20)
        return 1;
    }
  return 0;
}

/* ---- JNI helpers ------------------------------------------------------- */

static char *
dup_jstring (JNIEnv  *env,
             jstring  s)
{
  const char *utf;
  char *copy;

  if (s == NULL)
    return NULL;
  utf = (*env)->GetStringUTFChars (env, s, NULL);
  if (utf == NULL)
    return NULL;
  copy = strdup (utf);
  (*env)->ReleaseStringUTFChars (env, s, utf);
  return copy;
}

/* A NULL-terminated copy of a String[] (NULL entries skipped). */
static char **
dup_jstrings (JNIEnv       *env,
              jobjectArray  array)
{
  jsize n = array ? (*env)->GetArrayLength (env, array) : 0, i, k = 0;
  char **v = calloc ((size_t) n + 1, sizeof *v);

  for (i = 0; v && i < n; i++)
    {
      jstring s = (*env)->GetObjectArrayElement (env, array, i);

      if (s != NULL)
        {
          char *c = dup_jstring (env, s);

          if (c)
            v[k++] = c;
          (*env)->DeleteLocalRef (env, s);
        }
    }
  return v;
}

static void
free_strv (char **v)
{
  char **p;

  for (p = v; p && *p; p++)
    free (*p);
  free (v);
}

static void
clear_exception (JNIEnv *env)
{
  if ((*env)->ExceptionCheck (env))
    (*env)->ExceptionClear (env);
}

/* ---- engine callbacks (on the session's thread) ------------------------ */

static int
cb_protect (void *user_data,
            int   fd)
{
  Session *s = user_data;
  JNIEnv *env = s->env;
  jboolean ok = (*env)->CallBooleanMethod (env, s->service, s->protect, (jint) fd);

  if ((*env)->ExceptionCheck (env))
    {
      (*env)->ExceptionClear (env);
      ok = JNI_FALSE;
    }
  if (!ok)
    {
      errno = EPERM;
      return -1;
    }
  return 0;
}

static jbyteArray
address (JNIEnv        *env,
         const uint8_t *addr,
         int            ip_version)
{
  jsize n = ip_version == 4 ? 4 : 16;
  jbyteArray a = (*env)->NewByteArray (env, n);

  if (a)
    (*env)->SetByteArrayRegion (env, a, 0, n, (const jbyte *) addr);
  return a;
}

static int
cb_get_uid (void                       *user_data,
            const AdbscopeAgentFlowKey *key)
{
  Session *s = user_data;
  JNIEnv *env = s->env;
  jbyteArray src, dst;
  jint uid = -1;

  if (s->helper == NULL)
    /* Before API 29: only the watched app is routed (when the self test
     * routes the agent too, -1: unknown). */
    return s->watched_uid;
  src = address (env, key->src, key->ip_version);
  dst = address (env, key->dst, key->ip_version);
  if (src && dst)
    uid = (*env)->CallIntMethod (env, s->helper, s->owner_uid, (jint) key->protocol, src,
                                 (jint) key->sport, dst, (jint) key->dport);
  if ((*env)->ExceptionCheck (env))
    {
      (*env)->ExceptionClear (env);
      uid = -1;
    }
  if (src)
    (*env)->DeleteLocalRef (env, src);
  if (dst)
    (*env)->DeleteLocalRef (env, dst);
  return uid;
}

static void
cb_resolve (void                *user_data,
            AdbscopeAgentEngine *engine,
            uint64_t             id,
            const uint8_t       *query,
            size_t               len)
{
  Session *s = user_data;
  JNIEnv *env = s->env;
  jbyteArray q = (*env)->NewByteArray (env, (jsize) len);

  if (q == NULL)
    {
      clear_exception (env);
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
      return;
    }
  (*env)->SetByteArrayRegion (env, q, 0, (jsize) len, (const jbyte *) query);
  /* The answer comes back through nativeDnsAnswer with this session. */
  (*env)->CallVoidMethod (env, s->helper, s->resolve, (jlong) (intptr_t) s, (jlong) id, q);
  if ((*env)->ExceptionCheck (env))
    {
      (*env)->ExceptionClear (env);
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
    }
  (*env)->DeleteLocalRef (env, q);
}

static void
cb_log (void                 *user_data,
        AdbscopeAgentLogLevel level,
        const char           *message)
{
  static const int prio[] = { ANDROID_LOG_DEBUG, ANDROID_LOG_INFO, ANDROID_LOG_WARN,
                              ANDROID_LOG_ERROR };

  __android_log_write (prio[level], TAG, message);
}

/* ---- the self test ----------------------------------------------------- */

static void
selftest_set (unsigned int  generation,
              const char   *fmt,
              ...)
{
  va_list ap;

  pthread_mutex_lock (&lock);
  if (generation == selftest_generation)
    {
      va_start (ap, fmt);
      vsnprintf (selftest_result, sizeof selftest_result, fmt, ap);
      va_end (ap);
    }
  pthread_mutex_unlock (&lock);
}

/* One TCP connection to HOST:PORT (resolved with getaddrinfo, so through
 * the VPN's DNS when the agent routes itself), `GET / HTTP/1.0`, an answer
 * read.  Its outcome goes on the state line as selftest=ok|fail:WHY. */
static void *
selftest_thread (void *data)
{
  SelftestJob *job = data;
  unsigned int gen = job->generation;
  char *spec = job->spec, *colon = strrchr (spec, ':');
  char host[256], port[16];
  struct agent_addrinfo hints, *res = NULL, *ai;
  int fd = -1, rc, err = 0;
  const char *stage = "connect";

  free (job);
  if (colon == NULL || colon == spec || colon[1] == '\0')
    {
      selftest_set (gen, "fail:bad_target");
      free (spec);
      return NULL;
    }
  *colon = '\0';
  copy_str (host, sizeof host, spec[0] == '[' ? spec + 1 : spec);
  if (host[0] && host[strlen (host) - 1] == ']')
    host[strlen (host) - 1] = '\0';
  copy_str (port, sizeof port, colon + 1);
  free (spec);

  memset (&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  rc = agent_getaddrinfo (host, port, &hints, &res);
  if (rc != 0 || res == NULL)
    {
      selftest_set (gen, "fail:resolve:%d", rc);
      return NULL;
    }
  for (ai = res; ai; ai = ai->ai_next)
    {
      struct pollfd p;
      socklen_t len = sizeof err;

      fd = socket (ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      if (fd < 0)
        {
          err = errno;
          continue;
        }
      if (connect (fd, ai->ai_addr, ai->ai_addrlen) == 0)
        {
          err = 0;
          break;
        }
      err = errno;
      if (err == EINPROGRESS)
        {
          p.fd = fd;
          p.events = POLLOUT;
          p.revents = 0;
          if (poll (&p, 1, 10000) == 1 && getsockopt (fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0
              && err == 0)
            break;
          if (err == EINPROGRESS)
            err = ETIMEDOUT;
        }
      close (fd);
      fd = -1;
    }
  agent_freeaddrinfo (res);
  if (fd >= 0)
    {
      char req[320], buf[512];
      int n = snprintf (req, sizeof req, "GET / HTTP/1.0\r\nHost: %s\r\n\r\n", host);
      size_t sent = 0;
      ssize_t got = 0;

      stage = "write";
      while (sent < (size_t) n)
        {
          struct pollfd p = { fd, POLLOUT, 0 };
          ssize_t w;

          if (poll (&p, 1, 10000) != 1)
            {
              err = ETIMEDOUT;
              break;
            }
          w = send (fd, req + sent, (size_t) n - sent, MSG_NOSIGNAL);
          if (w < 0 && errno != EAGAIN && errno != EINTR)
            {
              err = errno;
              break;
            }
          if (w > 0)
            sent += (size_t) w;
        }
      if (sent == (size_t) n)
        {
          struct pollfd p = { fd, POLLIN, 0 };

          stage = "read";
          if (poll (&p, 1, 10000) != 1)
            err = ETIMEDOUT;
          else if ((got = recv (fd, buf, sizeof buf, 0)) < 0)
            err = errno;
          else if (got == 0)
            err = ECONNRESET;
          else
            err = 0;
        }
      close (fd);
    }
  if (err == 0 && fd >= 0)
    selftest_set (gen, "ok");
  else
    selftest_set (gen, "fail:%s:%s", stage, strerror (err));
  return NULL;
}

/* ---- sessions ---------------------------------------------------------- */

static void
session_free (Session *s,
              JNIEnv  *env)
{
  if (env)
    {
      if (s->service)
        (*env)->DeleteGlobalRef (env, s->service);
      if (s->helper)
        (*env)->DeleteGlobalRef (env, s->helper);
    }
  free (s->package);
  free (s->token);
  free (s->socket_name);
  free (s->selftest);
  free_strv (s->dns_servers);
  free (s);
}

/* Tells the service the session it started ended; @stop_service: nothing
 * to show anymore (stopped), else the state line stays (an error). */
static void
session_ended (Session *s,
               int      stop_service)
{
  JNIEnv *env = s->env;

  (*env)->CallVoidMethod (env, s->service, s->ended, (jboolean) (stop_service ? JNI_TRUE : JNI_FALSE));
  clear_exception (env);
}

static void *
session_thread (void *data)
{
  Session *s = data;
  JavaVMAttachArgs args = { JNI_VERSION_1_6, "adbscope-engine", NULL };
  AdbscopeAgentConfig config;
  AdbscopeAgentCallbacks cb;
  AdbscopeAgentEngine *engine;
  char pcap_name[160], error[256];
  int is_current, stop_requested;

  if ((*s->vm)->AttachCurrentThread (s->vm, (void *) &s->env, &args) != JNI_OK)
    {
      log_print (ANDROID_LOG_ERROR, "cannot attach the engine thread");
      close (s->tun_fd);
      return NULL;
    }

  /* The previous session's engine holds the socket names until its loop
   * returned: wait for it here, never on the main thread. */
  if (s->previous)
    {
      pthread_join (s->previous->thread, NULL);
      session_free (s->previous, s->env);
      s->previous = NULL;
    }

  adbscope_agent_config_init (&config);
  config.tun_fd = s->tun_fd;
  config.mtu = MTU;
  /* 10.215.173.2 is the default; the IPv6 resolver matches the Builder's. */
  config.have_dns6 = 1;
  {
    static const uint8_t dns6[16] = { 0xfd, 0x00, 0xad, 0xb5, [15] = 2 };

    memcpy (config.dns6, dns6, 16);
  }
  snprintf (pcap_name, sizeof pcap_name, "%s-pcap", s->socket_name);
  config.socket_name = s->socket_name;
  config.pcap_socket_name = pcap_name;
  config.platform = "android";
  /* the app's first connections come before the desktop's pcap client */
  config.pcap_from_start_ms = AGENT_PCAP_FROM_START_MS;
  config.agent_version = ADBSCOPE_AGENT_VERSION;
  config.dns_servers = (const char *const *) s->dns_servers;
  config.instance_token = s->token;

  memset (&cb, 0, sizeof cb);
  cb.user_data = s;
  cb.protect_socket = cb_protect;
  cb.get_uid = cb_get_uid;
  /* Before API 29 the engine forwards to dns_servers itself. */
  cb.resolve_dns = s->helper ? cb_resolve : NULL;
  cb.log = cb_log;

  pthread_mutex_lock (&lock);
  stop_requested = s->stop_requested;
  pthread_mutex_unlock (&lock);
  engine = stop_requested ? NULL : adbscope_agent_engine_new (&config, &cb, error, sizeof error);
  pthread_mutex_lock (&lock);
  is_current = current == s;
  if (engine == NULL)
    {
      if (is_current && !stop_requested)
        set_state_locked ("error:engine_start", NULL, error);
      else if (is_current)
        set_state_locked ("stopped", NULL, NULL);
    }
  else
    {
      s->engine = engine;
      if (s->stop_requested)
        adbscope_agent_engine_stop (engine);
      else if (is_current)
        set_state_locked ("running", NULL, NULL);
    }
  pthread_mutex_unlock (&lock);

  if (engine != NULL)
    {
      if (s->selftest && is_current)
        {
          pthread_t t;
          SelftestJob *job = calloc (1, sizeof *job);
          unsigned int gen;

          pthread_mutex_lock (&lock);
          gen = selftest_generation;
          pthread_mutex_unlock (&lock);
          selftest_set (gen, "running");
          if (job)
            {
              job->spec = strdup (s->selftest);
              job->generation = gen;
            }
          if (job == NULL || job->spec == NULL
              || pthread_create (&t, NULL, selftest_thread, job) != 0)
            {
              if (job)
                free (job->spec);
              free (job);
              selftest_set (gen, "fail:thread");
            }
          else
            pthread_detach (t);
        }
      log_print (ANDROID_LOG_INFO, "capture of %s started", s->package ? s->package : "-");
      adbscope_agent_engine_run (engine);
      pthread_mutex_lock (&lock);
      s->engine = NULL;
      pthread_mutex_unlock (&lock);
      adbscope_agent_engine_free (engine);
    }
  /* Only now, with the loop gone: the VPN goes down with its fd. */
  close (s->tun_fd);
  s->tun_fd = -1;

  pthread_mutex_lock (&lock);
  s->finished = 1;
  is_current = current == s;
  if (is_current && engine != NULL)
    set_state_locked ("stopped", NULL, NULL);
  pthread_mutex_unlock (&lock);
  if (is_current)
    session_ended (s, engine != NULL || stop_requested);
  log_print (ANDROID_LOG_INFO, "capture of %s ended", s->package ? s->package : "-");
  (*s->vm)->DetachCurrentThread (s->vm);
  s->env = NULL;
  /* Freed by whoever joins this thread (the next session, or nobody:
   * a session that stays current keeps its memory until replaced). */
  return NULL;
}

/* Under lock: ask @s to stop (without waiting). */
static void
session_stop_locked (Session *s)
{
  s->stop_requested = 1;
  if (s->engine)
    adbscope_agent_engine_stop (s->engine);
}

/* ---- native methods ---------------------------------------------------- */

/* static native void nativeEvent(int event, String pkg, String detail) */
JNIEXPORT void JNICALL
JNI_PREFIX (nativeEvent) (JNIEnv  *env,
                          jclass   cls,
                          jint     event,
                          jstring  jpkg,
                          jstring  jdetail)
{
  char *pkg = dup_jstring (env, jpkg);
  char *detail = dup_jstring (env, jdetail);

  pthread_mutex_lock (&lock);
  switch (event)
    {
    case EVENT_WAITING_CONSENT:
      /* Not over a running capture of the same package: the dialog does
       * not come again and the capture goes on. */
      if (!(current && !current->stop_requested && !current->finished && pkg && current->package
            && strcmp (pkg, current->package) == 0))
        set_state_locked ("waiting_consent", pkg ? pkg : "", NULL);
      break;
    case EVENT_CONSENT_DENIED:
      set_state_locked ("consent_denied", pkg ? pkg : "", NULL);
      break;
    case EVENT_SETUP_FAILED:
      if (current)
        session_stop_locked (current);
      set_state_locked (setup_error_code (detail), pkg ? pkg : "", detail);
      break;
    default:
      break;
    }
  pthread_mutex_unlock (&lock);
  if (event == EVENT_SETUP_FAILED)
    log_print (ANDROID_LOG_ERROR, "cannot set up the VPN for %s: %s", pkg ? pkg : "-",
               detail ? detail : "?");
  free (pkg);
  free (detail);
}

/* static native int nativePlan(String pkg, String selftest, String[] linkAddresses)
 * What a START does: < 0 nothing (already capturing @pkg, or nothing to
 * capture: the state says why), else the PLAN_* flags for the Builder.
 * A capture of another package is asked to stop (the new session's thread
 * waits for it). */
JNIEXPORT jint JNICALL
JNI_PREFIX (nativePlan) (JNIEnv       *env,
                         jclass        cls,
                         jstring       jpkg,
                         jstring       jselftest,
                         jobjectArray  link_addresses)
{
  char *pkg = dup_jstring (env, jpkg);
  char **addrs = dup_jstrings (env, link_addresses);
  jint plan = 0;

  pthread_mutex_lock (&lock);
  if (pkg == NULL && jselftest == NULL)
    {
      set_state_locked ("error:no_package", "", "START without -e package PKG or -e selftest HOST:PORT");
      plan = -1;
    }
  else if (current && !current->stop_requested && !current->finished && jselftest == NULL && pkg
           && current->package
           && strcmp (pkg, current->package) == 0)
    plan = -1;                  /* already capturing it */
  else
    {
      /* The capture running is not current anymore: when it ends it
       * neither says "stopped" nor stops the service the new one needs. */
      if (current)
        session_stop_locked (current);
      current = NULL;
      if (has_global_ipv6 (addrs))
        plan |= PLAN_IPV6;
      if (jselftest != NULL)
        plan |= PLAN_ROUTE_SELF;
      set_state_locked ("waiting_consent", pkg ? pkg : "", NULL);
      selftest_result[0] = '\0';
      selftest_generation++;
    }
  pthread_mutex_unlock (&lock);
  free (pkg);
  free_strv (addrs);
  return plan;
}

/* native void nativeStart(int tunFd, String pkg, int watchedUid, String token,
 *                         String selftest, String[] dnsServers, Object api29,
 *                         String socketName)
 * Takes @tun_fd (detached from its ParcelFileDescriptor) whatever happens. */
JNIEXPORT void JNICALL
JNI_PREFIX (nativeStart) (JNIEnv       *env,
                          jobject       service,
                          jint          tun_fd,
                          jstring       jpkg,
                          jint          watched_uid,
                          jstring       jtoken,
                          jstring       jselftest,
                          jobjectArray  jdns,
                          jobject       helper,
                          jstring       jsocket_name)
{
  Session *s = calloc (1, sizeof *s);
  jclass cls = (*env)->GetObjectClass (env, service);

  if (s == NULL || (*env)->GetJavaVM (env, &s->vm) != JNI_OK)
    goto fail;
  s->tun_fd = tun_fd;
  s->watched_uid = jselftest != NULL ? -1 : watched_uid;
  s->package = dup_jstring (env, jpkg);
  s->token = dup_jstring (env, jtoken);
  s->selftest = dup_jstring (env, jselftest);
  s->socket_name = dup_jstring (env, jsocket_name);
  s->dns_servers = dup_jstrings (env, jdns);
  /* InetAddress.toString() is "HOST/ADDR": the engine wants ADDR. */
  for (char **d = s->dns_servers; d && *d; d++)
    {
      char *slash = strrchr (*d, '/');

      if (slash)
        memmove (*d, slash + 1, strlen (slash + 1) + 1);
    }
  s->service = (*env)->NewGlobalRef (env, service);
  s->protect = (*env)->GetMethodID (env, cls, "protect", "(I)Z");
  s->ended = (*env)->GetMethodID (env, cls, "sessionEnded", "(Z)V");
  if (helper)
    {
      jclass hcls = (*env)->GetObjectClass (env, helper);

      s->helper = (*env)->NewGlobalRef (env, helper);
      s->owner_uid = (*env)->GetMethodID (env, hcls, "ownerUid", "(I[BI[BI)I");
      s->resolve = (*env)->GetMethodID (env, hcls, "resolve", "(JJ[B)V");
      if (s->owner_uid == NULL || s->resolve == NULL)
        goto fail;
    }
  if (s->socket_name == NULL || s->dns_servers == NULL || s->service == NULL
      || s->protect == NULL || s->ended == NULL)
    goto fail;

  pthread_mutex_lock (&lock);
  if (current)
    session_stop_locked (current);
  s->previous = unjoined;
  current = s;
  if (pthread_create (&s->thread, NULL, session_thread, s) != 0)
    {
      current = NULL;
      set_state_locked ("error:engine_start", s->package ? s->package : "", "no thread");
      pthread_mutex_unlock (&lock);
      close (tun_fd);
      session_free (s, env);
      return;
    }
  unjoined = s;
  pthread_mutex_unlock (&lock);
  return;

fail:
  clear_exception (env);
  set_state ("error:engine_start", NULL, "out of memory or a missing method");
  close (tun_fd);
  if (s)
    session_free (s, env);
}

/* static native void nativeStop(): asks the capture to stop and returns at
 * once; the session's thread closes the TUN and reports "stopped". */
JNIEXPORT void JNICALL
JNI_PREFIX (nativeStop) (JNIEnv *env,
                         jclass  cls)
{
  pthread_mutex_lock (&lock);
  if (current)
    session_stop_locked (current);
  if (current == NULL || current->engine == NULL)
    set_state_locked ("stopped", NULL, NULL);
  pthread_mutex_unlock (&lock);
}

/* static native void nativeDnsAnswer(long session, long queryId, byte[] answer) */
JNIEXPORT void JNICALL
JNI_PREFIX (nativeDnsAnswer) (JNIEnv     *env,
                              jclass      cls,
                              jlong       session,
                              jlong       query_id,
                              jbyteArray  answer)
{
  jbyte *bytes = answer ? (*env)->GetByteArrayElements (env, answer, NULL) : NULL;
  jsize len = bytes ? (*env)->GetArrayLength (env, answer) : 0;
  Session *s;

  /* Under the lock, so the engine cannot be freed in between; a session
   * that is not current anymore may be freed already: only compare. */
  pthread_mutex_lock (&lock);
  s = current;
  if (s != NULL && s == (Session *) (intptr_t) session && s->engine != NULL)
    adbscope_agent_engine_dns_answer (s->engine, (uint64_t) query_id, (const uint8_t *) bytes,
                                      (size_t) len);
  pthread_mutex_unlock (&lock);
  if (bytes)
    (*env)->ReleaseByteArrayElements (env, answer, bytes, JNI_ABORT);
}

/* static native String nativeDumpLine(): the state line. */
JNIEXPORT jstring JNICALL
JNI_PREFIX (nativeDumpLine) (JNIEnv *env,
                             jclass  cls)
{
  char line[1536];

  pthread_mutex_lock (&lock);
  snprintf (line, sizeof line, "  adbscope-agent state=%s", state);
  if (state_reason[0])
    {
      strcat (line, " reason=");
      append_escaped (line, sizeof line - 200, state_reason);
    }
  snprintf (line + strlen (line), sizeof line - strlen (line), " package=%s version=%ld",
            state_package, version_code ());
  if (selftest_result[0])
    {
      strcat (line, " selftest=");
      append_escaped (line, sizeof line, selftest_result);
    }
  pthread_mutex_unlock (&lock);
  return (*env)->NewStringUTF (env, line);
}
