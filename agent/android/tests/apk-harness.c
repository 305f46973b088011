/* apk-harness.c: drives libadbscope-agent.so, as taken from the APK, on
 * this machine (docs/agent.md, "How the APK is checked").
 *
 *   apk-harness LIB.so VERSION_NAME VERSION_CODE
 *
 * Built for each ABI's CPU by check-apk.py harness (ARM ones run under
 * qemu-user) and linked against glibc; the library's libc.so and liblog.so
 * are the stand-ins of apk-harness-bionic.c.  The JNI environment is built
 * here by hand: the service and the API-29 helper are small C objects whose
 * methods (protect, sessionEnded, ownerUid, resolve) this file implements.
 * It checks, through the library's Java_* entry points only:
 *
 *  - the state line (nativeDumpLine): versionCode, the setup error codes
 *    and their escaped reasons;
 *  - the start plan (nativePlan): IPv6 only with a global IPv6 address, the
 *    agent routed for a self test;
 *  - a session (nativeStart) on a socketpair standing in for the TUN: it
 *    reaches `running`, its abstract socket sends a Hello (protocol 1, our
 *    version, platform android), a DNS query sent as an IPv4/UDP packet to
 *    10.215.173.2 goes out through the helper's resolve() and its answer
 *    (given back on another thread with nativeDnsAnswer) comes back into
 *    the "TUN" with the query's id;
 *  - a START for another package replaces the session: the first one's TUN
 *    is closed (its peer sees the hang-up), the second serves the same
 *    socket name, and the service is not told to stop;
 *  - nativeStop returns at once; the session's thread then closes the TUN,
 *    the state says stopped and the service hears sessionEnded(true);
 *  - the self test: getaddrinfo (bionic's layout), TCP to a local server,
 *    `GET / HTTP/1.0`, selftest=ok; refused: selftest=fail:connect:…;
 *  - an engine that cannot start (its socket name taken): error:engine_start
 *    with the reason, sessionEnded(false).
 *
 * TAP output; exit 0 when all held, 77 when not root (the agent lets only
 * uids 0 and 2000 on its socket).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <jni.h>
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent.pb-c.h"

static int failures, checks;

#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    checks++;                                                                   \
    if (cond)                                                                   \
      printf ("ok %d - ", checks);                                              \
    else                                                                        \
      {                                                                         \
        printf ("not ok %d - ", checks);                                        \
        failures++;                                                             \
      }                                                                         \
    printf (__VA_ARGS__);                                                       \
    printf ("\n");                                                              \
    fflush (stdout);                                                            \
  } while (0)

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* ---- objects of the stand-in Java world --------------------------------- */

enum { K_CLASS, K_STRING, K_BYTES, K_ARRAY, K_SERVICE, K_HELPER };

typedef struct {
  int      kind;
  int      n;
  char    *s;
  jbyte   *bytes;
  jobject *items;
  int      cls;                   /* K_CLASS: which class */
} Obj;

typedef struct {
  int         cls;
  const char *name;
  const char *sig;
} Method;

static const Method methods[] = {
  { K_SERVICE, "protect", "(I)Z" },
  { K_SERVICE, "sessionEnded", "(Z)V" },
  { K_HELPER, "ownerUid", "(I[BI[BI)I" },
  { K_HELPER, "resolve", "(JJ[B)V" },
};

static Obj service_class = { K_CLASS, .cls = K_SERVICE };
static Obj helper_class = { K_CLASS, .cls = K_HELPER };
static Obj service_obj = { K_SERVICE };
static Obj helper_obj = { K_HELPER };

static pthread_mutex_t world_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t world_cond = PTHREAD_COND_INITIALIZER;
static int protect_calls, ended_true, ended_false, resolve_calls, unknown_methods;
/* ownerUid() blocks while block_owner is set (the engine stalled in a
 * callback); owner_blocked counts the calls that blocked. */
static int block_owner, owner_blocked;
static uint8_t last_query[512];
static size_t last_query_len;

static jobject
new_string (const char *s)
{
  Obj *o = calloc (1, sizeof *o);

  o->kind = K_STRING;
  o->s = strdup (s);
  return (jobject) o;
}

static jobjectArray
new_string_array (const char *const *v)
{
  Obj *o = calloc (1, sizeof *o);
  int n = 0;

  while (v && v[n])
    n++;
  o->kind = K_ARRAY;
  o->n = n;
  o->items = calloc ((size_t) n + 1, sizeof (jobject));
  for (int i = 0; i < n; i++)
    o->items[i] = new_string (v[i]);
  return (jobjectArray) o;
}

/* ---- the JNI function table --------------------------------------------- */

static void (*native_dns_answer) (JNIEnv *, jclass, jlong, jlong, jbyteArray);
static JNIEnv the_env;
static JavaVM the_vm;

static jclass JNICALL
f_GetObjectClass (JNIEnv *env, jobject obj)
{
  return (jclass) (((Obj *) obj)->kind == K_SERVICE ? &service_class : &helper_class);
}

static jmethodID JNICALL
f_GetMethodID (JNIEnv *env, jclass cls, const char *name, const char *sig)
{
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (methods[i].cls == ((Obj *) cls)->cls && strcmp (methods[i].name, name) == 0
        && strcmp (methods[i].sig, sig) == 0)
      return (jmethodID) &methods[i];
  fprintf (stderr, "# GetMethodID: no %s %s\n", name, sig);
  unknown_methods++;
  return NULL;
}

typedef struct {
  jlong   session;
  jlong   id;
  uint8_t answer[600];
  size_t  len;
} Answer;

/* The platform resolver answers later, on its own thread (Android: the
 * main looper). */
static void *
answer_thread (void *data)
{
  Answer *a = data;
  Obj bytes = { K_BYTES, (int) a->len, NULL, (jbyte *) a->answer, NULL, 0 };

  usleep (20000);
  native_dns_answer (&the_env, (jclass) &service_class, a->session, a->id, (jbyteArray) &bytes);
  free (a);
  return NULL;
}

/* An A answer for the query: 10.1.2.3. */
static void
helper_resolve (jlong    session,
                jlong    id,
                Obj     *query)
{
  Answer *a = calloc (1, sizeof *a);
  static const uint8_t rr[] = { 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 1, 2, 3 };
  pthread_t t;

  pthread_mutex_lock (&world_lock);
  resolve_calls++;
  last_query_len = (size_t) query->n < sizeof last_query ? (size_t) query->n : sizeof last_query;
  memcpy (last_query, query->bytes, last_query_len);
  pthread_cond_broadcast (&world_cond);
  pthread_mutex_unlock (&world_lock);

  a->session = session;
  a->id = id;
  memcpy (a->answer, query->bytes, (size_t) query->n);
  a->answer[2] |= 0x80;         /* QR */
  a->answer[3] |= 0x80;         /* RA */
  a->answer[7] = 1;             /* ANCOUNT */
  memcpy (a->answer + query->n, rr, sizeof rr);
  a->len = (size_t) query->n + sizeof rr;
  pthread_create (&t, NULL, answer_thread, a);
  pthread_detach (t);
}

static jvalue
call (jobject obj, jmethodID mid, va_list ap)
{
  const Method *m = (const Method *) mid;
  jvalue r;

  memset (&r, 0, sizeof r);
  if (m == &methods[0])
    {
      (void) va_arg (ap, jint);
      pthread_mutex_lock (&world_lock);
      protect_calls++;
      pthread_mutex_unlock (&world_lock);
      r.z = JNI_TRUE;
    }
  else if (m == &methods[1])
    {
      int stop = va_arg (ap, int);

      pthread_mutex_lock (&world_lock);
      if (stop)
        ended_true++;
      else
        ended_false++;
      pthread_cond_broadcast (&world_cond);
      pthread_mutex_unlock (&world_lock);
    }
  else if (m == &methods[2])
    {
      pthread_mutex_lock (&world_lock);
      if (block_owner)
        {
          owner_blocked++;
          pthread_cond_broadcast (&world_cond);
          while (block_owner)
            pthread_cond_wait (&world_cond, &world_lock);
        }
      pthread_mutex_unlock (&world_lock);
      r.i = 10123;
    }
  else if (m == &methods[3])
    {
      jlong session = va_arg (ap, jlong);
      jlong id = va_arg (ap, jlong);
      Obj *q = va_arg (ap, Obj *);

      helper_resolve (session, id, q);
    }
  return r;
}

static jboolean JNICALL
f_CallBooleanMethod (JNIEnv *env, jobject obj, jmethodID mid, ...)
{
  va_list ap;
  jvalue r;

  va_start (ap, mid);
  r = call (obj, mid, ap);
  va_end (ap);
  return r.z;
}

static jint JNICALL
f_CallIntMethod (JNIEnv *env, jobject obj, jmethodID mid, ...)
{
  va_list ap;
  jvalue r;

  va_start (ap, mid);
  r = call (obj, mid, ap);
  va_end (ap);
  return r.i;
}

static void JNICALL
f_CallVoidMethod (JNIEnv *env, jobject obj, jmethodID mid, ...)
{
  va_list ap;

  va_start (ap, mid);
  call (obj, mid, ap);
  va_end (ap);
}

static jbyteArray JNICALL
f_NewByteArray (JNIEnv *env, jsize n)
{
  Obj *o = calloc (1, sizeof *o);

  o->kind = K_BYTES;
  o->n = n;
  o->bytes = calloc ((size_t) n + 1, 1);
  return (jbyteArray) o;
}

static void JNICALL
f_SetByteArrayRegion (JNIEnv *env, jbyteArray a, jsize start, jsize len, const jbyte *buf)
{
  memcpy (((Obj *) a)->bytes + start, buf, (size_t) len);
}

static jbyte *JNICALL
f_GetByteArrayElements (JNIEnv *env, jbyteArray a, jboolean *copy)
{
  return ((Obj *) a)->bytes;
}

static void JNICALL
f_ReleaseByteArrayElements (JNIEnv *env, jbyteArray a, jbyte *elems, jint mode)
{
}

static jsize JNICALL
f_GetArrayLength (JNIEnv *env, jarray a)
{
  return ((Obj *) a)->n;
}

static jboolean JNICALL
f_ExceptionCheck (JNIEnv *env)
{
  return JNI_FALSE;
}

static void JNICALL
f_ExceptionClear (JNIEnv *env)
{
}

static void JNICALL
f_DeleteLocalRef (JNIEnv *env, jobject o)
{
}

static jobject JNICALL
f_NewGlobalRef (JNIEnv *env, jobject o)
{
  return o;
}

static void JNICALL
f_DeleteGlobalRef (JNIEnv *env, jobject o)
{
}

static const char *JNICALL
f_GetStringUTFChars (JNIEnv *env, jstring s, jboolean *copy)
{
  return ((Obj *) s)->s;
}

static void JNICALL
f_ReleaseStringUTFChars (JNIEnv *env, jstring s, const char *chars)
{
}

static jobject JNICALL
f_GetObjectArrayElement (JNIEnv *env, jobjectArray a, jsize i)
{
  return ((Obj *) a)->items[i];
}

static jstring JNICALL
f_NewStringUTF (JNIEnv *env, const char *s)
{
  return (jstring) new_string (s);
}

static jint JNICALL
f_GetJavaVM (JNIEnv *env, JavaVM **vm)
{
  *vm = &the_vm;
  return JNI_OK;
}

static int attached, detached;

static jint JNICALL
f_AttachCurrentThread (JavaVM *vm, void **penv, void *args)
{
  __atomic_add_fetch (&attached, 1, __ATOMIC_SEQ_CST);
  *penv = &the_env;
  return JNI_OK;
}

static jint JNICALL
f_DetachCurrentThread (JavaVM *vm)
{
  __atomic_add_fetch (&detached, 1, __ATOMIC_SEQ_CST);
  return JNI_OK;
}

static struct JNINativeInterface_ env_fns;
static struct JNIInvokeInterface_ vm_fns;

static void
init_jni (void)
{
  env_fns.GetObjectClass = f_GetObjectClass;
  env_fns.GetMethodID = f_GetMethodID;
  env_fns.CallBooleanMethod = f_CallBooleanMethod;
  env_fns.CallIntMethod = f_CallIntMethod;
  env_fns.CallVoidMethod = f_CallVoidMethod;
  env_fns.NewByteArray = f_NewByteArray;
  env_fns.SetByteArrayRegion = f_SetByteArrayRegion;
  env_fns.GetByteArrayElements = f_GetByteArrayElements;
  env_fns.ReleaseByteArrayElements = f_ReleaseByteArrayElements;
  env_fns.GetArrayLength = f_GetArrayLength;
  env_fns.ExceptionCheck = f_ExceptionCheck;
  env_fns.ExceptionClear = f_ExceptionClear;
  env_fns.DeleteLocalRef = f_DeleteLocalRef;
  env_fns.NewGlobalRef = f_NewGlobalRef;
  env_fns.DeleteGlobalRef = f_DeleteGlobalRef;
  env_fns.GetStringUTFChars = f_GetStringUTFChars;
  env_fns.ReleaseStringUTFChars = f_ReleaseStringUTFChars;
  env_fns.GetObjectArrayElement = f_GetObjectArrayElement;
  env_fns.NewStringUTF = f_NewStringUTF;
  env_fns.GetJavaVM = f_GetJavaVM;
  vm_fns.AttachCurrentThread = f_AttachCurrentThread;
  vm_fns.DetachCurrentThread = f_DetachCurrentThread;
  the_env = &env_fns;
  the_vm = &vm_fns;
}

/* ---- the library's entry points ----------------------------------------- */

#define JNAME(n) "Java_io_github_adbscope_agent_AgentVpnService_" n

static void (*native_event) (JNIEnv *, jclass, jint, jstring, jstring);
static jint (*native_plan) (JNIEnv *, jclass, jstring, jstring, jobjectArray);
static void (*native_start) (JNIEnv *, jobject, jint, jstring, jint, jstring, jstring,
                             jobjectArray, jobject, jstring);
static void (*native_stop) (JNIEnv *, jclass);
static jstring (*native_dump_line) (JNIEnv *, jclass);

static char *
dump_line (void)
{
  return ((Obj *) native_dump_line (&the_env, (jclass) &service_class))->s;
}

/* Waits up to 20 s (qemu on a loaded machine) for the state line to
 * contain @needle; returns the last line. */
static char *
wait_line (const char *needle)
{
  double until = now_s () + 20;
  char *line;

  for (;;)
    {
      line = dump_line ();
      if (strstr (line, needle) || now_s () > until)
        return line;
      usleep (10000);
    }
}

static jstring
js (const char *s)
{
  return s ? (jstring) new_string (s) : NULL;
}

static int
plan (const char *pkg, const char *selftest, const char *const *addrs)
{
  return native_plan (&the_env, (jclass) &service_class, js (pkg), js (selftest),
                      new_string_array (addrs));
}

static void
start_full (int tun, const char *pkg, int watched_uid, const char *selftest,
            const char *const *dns, jobject helper, const char *socket_name)
{
  native_start (&the_env, (jobject) &service_obj, tun, js (pkg), watched_uid, js ("token-1"),
                js (selftest), new_string_array (dns), helper, js (socket_name));
}

/* As on Android 10+: the API-29 helper answers uids and DNS. */
static void
start (int tun, const char *pkg, const char *selftest, const char *socket_name)
{
  static const char *const no_dns[] = { NULL };

  start_full (tun, pkg, 10123, selftest, no_dns, (jobject) &helper_obj, socket_name);
}

/* ---- the agent's socket and the "TUN" ----------------------------------- */

static int
connect_abstract (const char *name)
{
  struct sockaddr_un sa;
  socklen_t len;
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  memset (&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  memcpy (sa.sun_path + 1, name, strlen (name));
  len = (socklen_t) (offsetof (struct sockaddr_un, sun_path) + 1 + strlen (name));
  if (connect (fd, (struct sockaddr *) &sa, len) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static int
read_full (int fd, uint8_t *buf, size_t len)
{
  size_t got = 0;

  while (got < len)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      ssize_t n;

      if (poll (&p, 1, 20000) != 1)
        return -1;
      n = read (fd, buf + got, len - got);
      if (n <= 0)
        return -1;
      got += (size_t) n;
    }
  return 0;
}

/* One length-delimited frame from the agent's socket, decoded (NULL on
 * an error). */
static Adbscope__Agent__V1__AgentMessage *
read_frame (int fd)
{
  static uint8_t buf[1 << 20];
  size_t len = 0;
  int shift = 0;

  for (;;)
    {
      uint8_t b;

      if (read_full (fd, &b, 1) != 0)
        return NULL;
      len |= (size_t) (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80))
        break;
    }
  if (len == 0 || len > sizeof buf || read_full (fd, buf, len) != 0)
    return NULL;
  return adbscope__agent__v1__agent_message__unpack (NULL, len, buf);
}

/* The first frame on the agent's socket, decoded: must be the Hello. */
static void
check_hello (const char *socket_name, const char *version)
{
  int fd = connect_abstract (socket_name);
  Adbscope__Agent__V1__AgentMessage *msg;

  CHECK (fd >= 0, "connected to the agent's abstract socket %s", socket_name);
  if (fd < 0)
    return;
  msg = read_frame (fd);
  CHECK (msg && msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO,
         "the first frame is a Hello");
  if (msg && msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO)
    {
      CHECK (msg->hello->protocol_version == 1, "protocol_version %u", msg->hello->protocol_version);
      CHECK (strcmp (msg->hello->agent_version, version) == 0, "agent_version %s (want %s)",
             msg->hello->agent_version, version);
      CHECK (strcmp (msg->hello->platform, "android") == 0, "platform %s", msg->hello->platform);
    }
  if (msg)
    adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);
}

static uint16_t
csum_fold (uint32_t sum)
{
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t) ~sum;
}

static uint32_t
csum_add (uint32_t sum, const uint8_t *p, size_t len)
{
  for (size_t i = 0; i + 1 < len; i += 2)
    sum += (uint32_t) (p[i] << 8 | p[i + 1]);
  if (len & 1)
    sum += (uint32_t) p[len - 1] << 8;
  return sum;
}

/* A query for example.com A with @id, as the app's IPv4/UDP packet from
 * 10.215.173.1:40000 to the fake resolver 10.215.173.2:53. */
static size_t
dns_packet (uint8_t *pkt, uint16_t id)
{
  static const uint8_t q[] = { 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                               7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0,
                               0, 1, 0, 1 };
  size_t udp_len = 8 + sizeof q, total = 20 + udp_len;
  uint8_t pseudo[12];
  uint32_t sum;

  memset (pkt, 0, total);
  pkt[0] = 0x45;
  pkt[2] = (uint8_t) (total >> 8);
  pkt[3] = (uint8_t) total;
  pkt[8] = 64;
  pkt[9] = IPPROTO_UDP;
  memcpy (pkt + 12, (uint8_t[]) { 10, 215, 173, 1 }, 4);
  memcpy (pkt + 16, (uint8_t[]) { 10, 215, 173, 2 }, 4);
  sum = csum_fold (csum_add (0, pkt, 20));
  pkt[10] = (uint8_t) (sum >> 8);
  pkt[11] = (uint8_t) sum;
  pkt[20] = 40000 >> 8;
  pkt[21] = 40000 & 0xff;
  pkt[23] = 53;
  pkt[24] = (uint8_t) (udp_len >> 8);
  pkt[25] = (uint8_t) udp_len;
  memcpy (pkt + 28, q, sizeof q);
  pkt[28] = (uint8_t) (id >> 8);
  pkt[29] = (uint8_t) id;
  memcpy (pseudo, pkt + 12, 8);
  pseudo[8] = 0;
  pseudo[9] = IPPROTO_UDP;
  pseudo[10] = (uint8_t) (udp_len >> 8);
  pseudo[11] = (uint8_t) udp_len;
  sum = csum_fold (csum_add (csum_add (0, pseudo, 12), pkt + 20, udp_len));
  if (sum == 0)
    sum = 0xffff;
  pkt[26] = (uint8_t) (sum >> 8);
  pkt[27] = (uint8_t) sum;
  return total;
}

/* The query packet turned into a datagram to 10.1.1.1:@port (a new UDP
 * flow, not DNS), checksums redone. */
static size_t
flow_packet (uint8_t *pkt, uint16_t port)
{
  size_t len = dns_packet (pkt, 0x0101), udp_len = len - 20;
  uint32_t sum;
  uint8_t pseudo[12];

  memcpy (pkt + 16, (uint8_t[]) { 10, 1, 1, 1 }, 4);
  pkt[22] = (uint8_t) (port >> 8);
  pkt[23] = (uint8_t) port;
  pkt[10] = pkt[11] = 0;
  sum = csum_fold (csum_add (0, pkt, 20));
  pkt[10] = (uint8_t) (sum >> 8);
  pkt[11] = (uint8_t) sum;
  pkt[26] = pkt[27] = 0;
  memcpy (pseudo, pkt + 12, 8);
  pseudo[8] = 0;
  pseudo[9] = IPPROTO_UDP;
  pseudo[10] = (uint8_t) (udp_len >> 8);
  pseudo[11] = (uint8_t) udp_len;
  sum = csum_fold (csum_add (csum_add (0, pseudo, 12), pkt + 20, udp_len));
  if (sum == 0)
    sum = 0xffff;
  pkt[26] = (uint8_t) (sum >> 8);
  pkt[27] = (uint8_t) sum;
  return len;
}

static void
check_dns (int app)
{
  uint8_t pkt[2048];
  size_t len = dns_packet (pkt, 0x5a17);
  struct pollfd p = { app, POLLIN, 0 };
  double until = now_s () + 20;
  ssize_t n = -1;
  int found = 0;

  CHECK (send (app, pkt, len, 0) == (ssize_t) len, "sent a DNS query into the TUN");
  /* The answer, skipping anything else the engine might send. */
  while (!found && now_s () < until)
    {
      if (poll (&p, 1, 1000) != 1)
        continue;
      n = recv (app, pkt, sizeof pkt, 0);
      if (n >= 28 + 12 && pkt[9] == IPPROTO_UDP && pkt[20] == 0 && pkt[21] == 53)
        found = 1;
    }
  CHECK (found, "a UDP packet from port 53 came back into the TUN");
  pthread_mutex_lock (&world_lock);
  CHECK (resolve_calls == 1 && last_query_len >= 12 && last_query[0] == 0x5a && last_query[1] == 0x17,
         "the helper's resolve() got the app's query (%d calls)", resolve_calls);
  pthread_mutex_unlock (&world_lock);
  if (!found)
    return;
  CHECK (memcmp (pkt + 12, (uint8_t[]) { 10, 215, 173, 2 }, 4) == 0
         && memcmp (pkt + 16, (uint8_t[]) { 10, 215, 173, 1 }, 4) == 0
         && pkt[22] == 40000 >> 8 && pkt[23] == (40000 & 0xff),
         "from 10.215.173.2:53 to the app's 10.215.173.1:40000");
  CHECK (pkt[28] == 0x5a && pkt[29] == 0x17 && (pkt[30] & 0x80) && pkt[35] == 1,
         "the answer has the query's id, QR and one answer");
  CHECK (n >= 16 && memcmp (pkt + n - 4, (uint8_t[]) { 10, 1, 2, 3 }, 4) == 0,
         "the answer's address is the resolver's (10.1.2.3)");
}

/* A peer of the TUN: the session closed its end. */
static int
wait_hangup (int app)
{
  double until = now_s () + 20;

  while (now_s () < until)
    {
      struct pollfd p = { app, POLLIN, 0 };
      char b[2048];

      if (poll (&p, 1, 500) == 1)
        {
          if (p.revents & POLLHUP)
            return 1;
          if (recv (app, b, sizeof b, MSG_DONTWAIT) == 0)
            return 1;
        }
    }
  return 0;
}

static int
wait_count (int *counter, int want)
{
  double until = now_s () + 20;
  int ok;

  pthread_mutex_lock (&world_lock);
  while (*counter < want && now_s () < until)
    {
      struct timespec ts;

      clock_gettime (CLOCK_REALTIME, &ts);
      ts.tv_nsec += 100000000;
      if (ts.tv_nsec >= 1000000000)
        {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000;
        }
      pthread_cond_timedwait (&world_cond, &world_lock, &ts);
    }
  ok = *counter >= want;
  pthread_mutex_unlock (&world_lock);
  return ok;
}

/* ---- a local HTTP server for the self test ------------------------------ */

static char http_request[256];

static void *
http_thread (void *data)
{
  int lfd = (int) (intptr_t) data, fd;
  struct pollfd p = { lfd, POLLIN, 0 };

  if (poll (&p, 1, 30000) != 1 || (fd = accept (lfd, NULL, NULL)) < 0)
    return NULL;
  {
    ssize_t n = recv (fd, http_request, sizeof http_request - 1, 0);

    if (n > 0)
      http_request[n] = '\0';
  }
  send (fd, "HTTP/1.0 200 OK\r\n\r\nok\n", 22, MSG_NOSIGNAL);
  close (fd);
  return NULL;
}

static int
listen_local (int *port)
{
  struct sockaddr_in sa;
  socklen_t len = sizeof sa;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  memset (&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  bind (fd, (struct sockaddr *) &sa, sizeof sa);
  listen (fd, 4);
  getsockname (fd, (struct sockaddr *) &sa, &len);
  *port = ntohs (sa.sin_port);
  return fd;
}

int
main (int argc, char **argv)
{
  void *lib;
  char name[64], busy_name[64], target[64];
  char *line;
  int sp1[2], sp2[2], sp3[2], sp4[2], port, lfd, busy;
  double t0, took;
  pthread_t http;
  int *getaddrinfo_calls;

  if (argc != 4)
    {
      fprintf (stderr, "usage: apk-harness LIB.so VERSION_NAME VERSION_CODE\n");
      return 2;
    }
  if (getuid () != 0)
    {
      printf ("1..0 # SKIP the agent's socket admits uids 0 and 2000 only\n");
      return 77;
    }
  init_jni ();
  lib = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  CHECK (lib != NULL, "dlopen %s: %s", argv[1], lib ? "ok" : dlerror ());
  if (lib == NULL)
    return 1;
  native_event = dlsym (lib, JNAME ("nativeEvent"));
  native_plan = dlsym (lib, JNAME ("nativePlan"));
  native_start = dlsym (lib, JNAME ("nativeStart"));
  native_stop = dlsym (lib, JNAME ("nativeStop"));
  native_dns_answer = dlsym (lib, JNAME ("nativeDnsAnswer"));
  native_dump_line = dlsym (lib, JNAME ("nativeDumpLine"));
  CHECK (native_event && native_plan && native_start && native_stop && native_dns_answer
         && native_dump_line, "every native method of AgentVpnService.smali is exported");
  CHECK (dlsym (lib, "adbscope_agent_engine_new") == NULL, "the engine is not exported");
  getaddrinfo_calls = dlsym (dlopen ("libc.so", RTLD_NOW | RTLD_NOLOAD), "apk_harness_getaddrinfo_calls");
  if (failures)
    return 1;

  /* The state line before anything. */
  line = dump_line ();
  {
    char want[96];

    snprintf (want, sizeof want, "  adbscope-agent state=stopped package= version=%s", argv[3]);
    CHECK (strcmp (line, want) == 0, "initial line \"%s\"", line);
  }

  /* The start plan: IPv6 only with a global IPv6 address. */
  {
    static const char *const v4_only[] = { "192.168.1.20/24", "fe80::1c2:3ff:fe04:506/64", "fd12::5/64", NULL };
    static const char *const v6[] = { "192.168.1.20/24", "2a01:e0a:1:2::5/64", NULL };
    static const char *const none[] = { NULL };

    CHECK (plan ("com.example.app", NULL, v4_only) == 0, "IPv4 + link-local + ULA: no IPv6 route");
    CHECK (plan ("com.example.app", NULL, v6) == 1, "a global IPv6 address: IPv6 routed");
    CHECK (plan ("com.example.app", NULL, none) == 0, "no network: no IPv6");
    CHECK (plan (NULL, "example.com:80", none) == 2, "a self test routes the agent");
    line = dump_line ();
    CHECK (strstr (line, "state=waiting_consent") != NULL, "after a plan: %s", line);
    CHECK (plan (NULL, NULL, none) < 0, "nothing to capture: no plan");
    line = dump_line ();
    CHECK (strstr (line, "state=error:no_package") != NULL, "%s", line);
  }

  /* Setup errors: the code from the exception, the reason escaped. */
  {
    static const struct { const char *exception, *state; } cases[] = {
      { "java.lang.SecurityException: Always-on VPN lockdown by com.vpn", "state=error:always_on_vpn reason=java.lang.SecurityException:%20Always-on%20VPN%20lockdown%20by%20com.vpn package=com.example.app" },
      { "java.lang.SecurityException: Restricted by DISALLOW_CONFIG_VPN", "state=error:vpn_not_allowed reason=" },
      { "java.lang.IllegalStateException: not prepared", "state=error:vpn_not_prepared reason=" },
      { "java.lang.IllegalArgumentException: Bad address", "state=error:vpn_setup_failed reason=" },
      { "android.content.pm.PackageManager$NameNotFoundException: com.example.app", "state=error:package_not_found reason=" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      {
        native_event (&the_env, (jclass) &service_class, 2, js ("com.example.app"), js (cases[i].exception));
        line = dump_line ();
        CHECK (strstr (line, cases[i].state) != NULL, "%s -> %s", cases[i].exception, line);
      }
    native_event (&the_env, (jclass) &service_class, 0, js ("com.example.app"), NULL);
    line = dump_line ();
    CHECK (strstr (line, "state=waiting_consent package=com.example.app") && !strstr (line, "reason="),
           "waiting for consent clears the reason: %s", line);
    native_event (&the_env, (jclass) &service_class, 1, js ("com.example.app"), NULL);
    CHECK (strstr (dump_line (), "state=consent_denied") != NULL, "consent denied");
  }

  /* A session on a socketpair standing in for the TUN. */
  snprintf (name, sizeof name, "adbscope-apk-harness-%d", (int) getpid ());
  socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp1);
  CHECK (plan ("com.example.app", NULL, NULL) == 0, "plan for com.example.app");
  start (sp1[0], "com.example.app", NULL, name);
  line = wait_line ("state=running");
  CHECK (strstr (line, "state=running package=com.example.app") != NULL, "running: %s", line);
  check_hello (name, argv[2]);
  check_dns (sp1[1]);
  CHECK (plan ("com.example.app", NULL, NULL) < 0, "a START for the package being captured changes nothing");
  CHECK (strstr (dump_line (), "state=running") != NULL, "still running");

  /* Another package: a new session replaces this one. */
  CHECK (plan ("com.example.other", NULL, NULL) == 0, "a START for another package restarts");
  socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp2);
  start (sp2[0], "com.example.other", NULL, name);
  CHECK (wait_hangup (sp1[1]), "the first session closed its TUN");
  line = wait_line ("state=running package=com.example.other");
  CHECK (strstr (line, "state=running package=com.example.other") != NULL, "%s", line);
  check_hello (name, argv[2]);
  pthread_mutex_lock (&world_lock);
  CHECK (ended_true == 0 && ended_false == 0, "the replaced session did not end the service");
  pthread_mutex_unlock (&world_lock);

  /* Stop while the engine's thread is stalled in a callback (a new flow's
   * ownerUid that does not return): nativeStop returns at once all the
   * same; the session's thread does the rest once the callback returned. */
  {
    uint8_t pkt[2048];
    size_t len = flow_packet (pkt, 9);

    pthread_mutex_lock (&world_lock);
    block_owner = 1;
    pthread_mutex_unlock (&world_lock);
    send (sp2[1], pkt, len, 0);
    CHECK (wait_count (&owner_blocked, 1), "the engine's thread is stalled in ownerUid()");
  }
  t0 = now_s ();
  native_stop (&the_env, (jclass) &service_class);
  took = now_s () - t0;
  CHECK (took < 0.25, "nativeStop returned in %.1f ms while the engine's thread was stalled", took * 1000);
  CHECK (strstr (dump_line (), "state=running") != NULL, "the TUN is not closed under the stalled engine");
  pthread_mutex_lock (&world_lock);
  block_owner = 0;
  pthread_cond_broadcast (&world_cond);
  pthread_mutex_unlock (&world_lock);
  CHECK (wait_hangup (sp2[1]), "the session closed its TUN after the engine's loop returned");
  CHECK (wait_count (&ended_true, 1), "the service heard sessionEnded(true)");
  line = wait_line ("state=stopped");
  CHECK (strstr (line, "state=stopped package=com.example.other") != NULL, "%s", line);
  CHECK (connect_abstract (name) < 0, "the agent's socket is gone");

  /* The self test: getaddrinfo, TCP, GET / HTTP/1.0. */
  lfd = listen_local (&port);
  pthread_create (&http, NULL, http_thread, (void *) (intptr_t) lfd);
  snprintf (target, sizeof target, "localhost:%d", port);
  CHECK (plan (NULL, target, NULL) == 2, "plan for a self test");
  socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp3);
  start (sp3[0], NULL, target, name);
  line = wait_line ("selftest=ok");
  CHECK (strstr (line, "state=running") && strstr (line, "selftest=ok"), "%s", line);
  pthread_join (http, NULL);
  CHECK (strncmp (http_request, "GET / HTTP/1.0\r\n", 16) == 0, "the server got \"GET / HTTP/1.0\"");
  CHECK (getaddrinfo_calls && *getaddrinfo_calls > 0,
         "the library resolved through the bionic-layout getaddrinfo");
  close (lfd);
  native_stop (&the_env, (jclass) &service_class);
  CHECK (wait_hangup (sp3[1]), "self-test session stopped");
  wait_line ("state=stopped");

  /* A refused self test: its reason on the line. */
  lfd = listen_local (&port);
  close (lfd);
  snprintf (target, sizeof target, "127.0.0.1:%d", port);
  plan (NULL, target, NULL);
  socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp4);
  start (sp4[0], NULL, target, name);
  line = wait_line ("selftest=fail");
  CHECK (strstr (line, "selftest=fail:connect:Connection%20refused") != NULL, "%s", line);
  native_stop (&the_env, (jclass) &service_class);
  CHECK (wait_hangup (sp4[1]), "refused self-test session stopped");
  CHECK (wait_count (&ended_true, 3), "sessionEnded(true) for each stopped session");

  /* As before Android 10: no helper.  Every flow's owner is the watched
   * app's uid (only it is routed), DNS is not sent to resolve() (the
   * engine forwards it to the real network's resolvers itself). */
  {
    static const char *const dns[] = { "dns.example/127.0.0.1", NULL };
    int sp6[2], fd, found = 0, resolves_before;
    uint8_t pkt[2048];
    size_t len;
    double until;

    plan ("com.example.old", NULL, NULL);
    socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp6);
    start_full (sp6[0], "com.example.old", 10777, NULL, dns, NULL, name);
    line = wait_line ("state=running");
    CHECK (strstr (line, "state=running package=com.example.old") != NULL, "API 26 session: %s", line);
    fd = connect_abstract (name);
    CHECK (fd >= 0, "connected (API 26 session)");
    if (fd >= 0)
      {
        Adbscope__Agent__V1__AgentMessage *msg = read_frame (fd);

        CHECK (msg && msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO, "Hello");
        if (msg)
          adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
        pthread_mutex_lock (&world_lock);
        resolves_before = resolve_calls;
        pthread_mutex_unlock (&world_lock);
        len = flow_packet (pkt, 9);
        send (sp6[1], pkt, len, 0);
        len = dns_packet (pkt, 0x0202);
        send (sp6[1], pkt, len, 0);
        until = now_s () + 20;
        while (!found && now_s () < until && (msg = read_frame (fd)) != NULL)
          {
            if (msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT)
              for (size_t i = 0; i < msg->snapshot->n_connections; i++)
                {
                  Adbscope__Agent__V1__Connection *c = msg->snapshot->connections[i];

                  if (c->destination && c->destination->port == 9)
                    {
                      found = 1;
                      CHECK (c->uid == 10777, "the flow's owner is the watched app's uid (%d)", c->uid);
                    }
                }
            adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
          }
        CHECK (found, "the UDP flow is in a snapshot");
        pthread_mutex_lock (&world_lock);
        CHECK (resolve_calls == resolves_before, "no resolve() call without the API-29 helper");
        pthread_mutex_unlock (&world_lock);
        close (fd);
      }
    native_stop (&the_env, (jclass) &service_class);
    CHECK (wait_hangup (sp6[1]), "API 26 session stopped");
    CHECK (wait_count (&ended_true, 4), "sessionEnded(true)");
  }

  /* An engine that cannot start: its socket name is taken. */
  {
    struct sockaddr_un sa;
    int sp5[2];

    snprintf (busy_name, sizeof busy_name, "adbscope-apk-harness-busy-%d", (int) getpid ());
    busy = socket (AF_UNIX, SOCK_STREAM, 0);
    memset (&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy (sa.sun_path + 1, busy_name, strlen (busy_name));
    bind (busy, (struct sockaddr *) &sa,
          (socklen_t) (offsetof (struct sockaddr_un, sun_path) + 1 + strlen (busy_name)));
    listen (busy, 1);
    plan ("com.example.app", NULL, NULL);
    socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp5);
    start (sp5[0], "com.example.app", NULL, busy_name);
    line = wait_line ("state=error");
    CHECK (strstr (line, "state=error:engine_start reason=") != NULL, "%s", line);
    CHECK (wait_count (&ended_false, 1), "the service heard sessionEnded(false) (stays for dumpsys)");
    CHECK (wait_hangup (sp5[1]), "the failed session closed its TUN");
    close (busy);
  }

  CHECK (unknown_methods == 0, "every GetMethodID named a method the smali defines");
  CHECK (wait_count (&detached, 6) && attached == detached, "every session thread attached and detached (%d/%d)",
         attached, detached);
  printf ("1..%d\n", checks);
  return failures ? 1 : 0;
}
