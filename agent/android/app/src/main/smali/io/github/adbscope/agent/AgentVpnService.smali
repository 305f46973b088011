# AgentVpnService: the VPN service; the Java side of the agent, kept as small
# as JNI allows.  It calls the Android APIs (notification, VpnService.Builder,
# LinkProperties) and hands every decision to the native side
# (app/src/main/cpp/agent-jni.c): the start plan, the capture sessions, the
# state line for `dumpsys activity service`, the setup errors.
# API 26 (minSdk) only; API-29 calls live in Api29, reached only when
# Build.VERSION.SDK_INT >= 29.  The one form of this code: smali assembles it
# into classes.dex (agent/android/build-apk.py).
.class public final Lio/github/adbscope/agent/AgentVpnService;
.super Landroid/net/VpnService;
.source "AgentVpnService.smali"


.method static constructor <clinit>()V
    .registers 1
    const-string v0, "adbscope-agent"
    invoke-static {v0}, Ljava/lang/System;->loadLibrary(Ljava/lang/String;)V
    return-void
.end method

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Landroid/net/VpnService;-><init>()V
    return-void
.end method


# ---- native side (agent-jni.c) ----------------------------------------------

# event: 0 waiting for consent, 1 consent denied, 2 setup failed (detail:
# the exception's toString())
.method static native nativeEvent(ILjava/lang/String;Ljava/lang/String;)V
.end method

# < 0: establish nothing; else bit 0: route IPv6, bit 1: route the agent too
.method static native nativePlan(Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)I
.end method

# (tunFd, package, watchedUid, token, selftest, dnsServers, api29, socketName)
.method native nativeStart(ILjava/lang/String;ILjava/lang/String;Ljava/lang/String;[Ljava/lang/String;Ljava/lang/Object;Ljava/lang/String;)V
.end method

.method static native nativeStop()V
.end method

.method static native nativeDnsAnswer(JJ[B)V
.end method

.method static native nativeDumpLine()Ljava/lang/String;
.end method


# ---- the service -------------------------------------------------------------

# `dumpsys activity service io.github.adbscope.agent/.AgentVpnService`
.method protected dump(Ljava/io/FileDescriptor;Ljava/io/PrintWriter;[Ljava/lang/String;)V
    .registers 5
    invoke-static {}, Lio/github/adbscope/agent/AgentVpnService;->nativeDumpLine()Ljava/lang/String;
    move-result-object v0
    invoke-virtual {p2, v0}, Ljava/io/PrintWriter;->println(Ljava/lang/String;)V
    return-void
.end method

.method public onStartCommand(Landroid/content/Intent;II)I
    .registers 8
    const/4 v3, 0x2
    if-nez p1, :have_intent
    return v3
    :have_intent
    invoke-virtual {p1}, Landroid/content/Intent;->getAction()Ljava/lang/String;
    move-result-object v0
    if-nez v0, :have_action
    return v3
    :have_action
    const-string v1, "package"
    invoke-virtual {p1, v1}, Landroid/content/Intent;->getStringExtra(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v1

    const-string v2, "io.github.adbscope.agent.STOP"
    invoke-virtual {v2, v0}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-eqz v2, :not_stop
    # Asks the engine to stop and returns: the native side closes the TUN
    # once the engine's loop returned.
    invoke-static {}, Lio/github/adbscope/agent/AgentVpnService;->nativeStop()V
    const/4 v2, 0x1
    invoke-virtual {p0, v2}, Lio/github/adbscope/agent/AgentVpnService;->sessionEnded(Z)V
    return v3
    :not_stop

    const-string v2, "io.github.adbscope.agent.CONSENT"
    invoke-virtual {v2, v0}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-eqz v2, :not_consent
    # Started (not in the foreground) while the dialog is up, so that
    # dumpsys finds waiting_consent.
    const/4 v2, 0x0
    const/4 v0, 0x0
    invoke-static {v2, v1, v0}, Lio/github/adbscope/agent/AgentVpnService;->nativeEvent(ILjava/lang/String;Ljava/lang/String;)V
    return v3
    :not_consent

    const-string v2, "io.github.adbscope.agent.DENIED"
    invoke-virtual {v2, v0}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-eqz v2, :not_denied
    const/4 v2, 0x1
    const/4 v0, 0x0
    invoke-static {v2, v1, v0}, Lio/github/adbscope/agent/AgentVpnService;->nativeEvent(ILjava/lang/String;Ljava/lang/String;)V
    return v3
    :not_denied

    const-string v2, "io.github.adbscope.agent.START"
    invoke-virtual {v2, v0}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-eqz v2, :done
    # Every START came through startForegroundService: foreground first,
    # whatever follows.
    invoke-direct {p0}, Lio/github/adbscope/agent/AgentVpnService;->goForeground()V
    invoke-direct {p0, p1, v1}, Lio/github/adbscope/agent/AgentVpnService;->start(Landroid/content/Intent;Ljava/lang/String;)V
    :done
    return v3
.end method

.method private start(Landroid/content/Intent;Ljava/lang/String;)V
    .registers 16
    :try_start
    const-string v0, "selftest"
    invoke-virtual {p1, v0}, Landroid/content/Intent;->getStringExtra(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v4
    const-string v0, "token"
    invoke-virtual {p1, v0}, Landroid/content/Intent;->getStringExtra(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v5
    const-string v0, "connectivity"
    invoke-virtual {p0, v0}, Landroid/content/Context;->getSystemService(Ljava/lang/String;)Ljava/lang/Object;
    move-result-object v6
    check-cast v6, Landroid/net/ConnectivityManager;
    # The real network (taken before our VPN exists).
    invoke-virtual {v6}, Landroid/net/ConnectivityManager;->getActiveNetwork()Landroid/net/Network;
    move-result-object v7
    const/4 v8, 0x0
    if-eqz v7, :no_network
    invoke-virtual {v6, v7}, Landroid/net/ConnectivityManager;->getLinkProperties(Landroid/net/Network;)Landroid/net/LinkProperties;
    move-result-object v8
    :no_network
    const/4 v9, 0x0
    new-array v9, v9, [Ljava/lang/String;
    move-object v10, v9
    if-eqz v8, :no_link
    invoke-virtual {v8}, Landroid/net/LinkProperties;->getLinkAddresses()Ljava/util/List;
    move-result-object v9
    invoke-static {v9}, Lio/github/adbscope/agent/AgentVpnService;->strings(Ljava/util/List;)[Ljava/lang/String;
    move-result-object v9
    invoke-virtual {v8}, Landroid/net/LinkProperties;->getDnsServers()Ljava/util/List;
    move-result-object v10
    invoke-static {v10}, Lio/github/adbscope/agent/AgentVpnService;->strings(Ljava/util/List;)[Ljava/lang/String;
    move-result-object v10
    :no_link
    invoke-static {p2, v4, v9}, Lio/github/adbscope/agent/AgentVpnService;->nativePlan(Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)I
    move-result v11
    if-ltz v11, :nothing

    # The watched app's uid: the owner of every flow before API 29.
    const/4 v12, -0x1
    if-eqz p2, :no_uid
    invoke-virtual {p0}, Landroid/content/Context;->getPackageManager()Landroid/content/pm/PackageManager;
    move-result-object v0
    const/4 v1, 0x0
    invoke-virtual {v0, p2, v1}, Landroid/content/pm/PackageManager;->getApplicationInfo(Ljava/lang/String;I)Landroid/content/pm/ApplicationInfo;
    move-result-object v0
    iget v12, v0, Landroid/content/pm/ApplicationInfo;->uid:I
    :no_uid

    new-instance v0, Landroid/net/VpnService$Builder;
    invoke-direct {v0, p0}, Landroid/net/VpnService$Builder;-><init>(Landroid/net/VpnService;)V
    const-string v1, "Adbscope"
    invoke-virtual {v0, v1}, Landroid/net/VpnService$Builder;->setSession(Ljava/lang/String;)Landroid/net/VpnService$Builder;
    # 10000: LinkProperties.MAX_MTU (docs/agent.md)
    const/16 v1, 0x2710
    invoke-virtual {v0, v1}, Landroid/net/VpnService$Builder;->setMtu(I)Landroid/net/VpnService$Builder;
    const-string v1, "10.215.173.1"
    const/16 v2, 0x1e
    invoke-virtual {v0, v1, v2}, Landroid/net/VpnService$Builder;->addAddress(Ljava/lang/String;I)Landroid/net/VpnService$Builder;
    const-string v1, "0.0.0.0"
    const/4 v2, 0x0
    invoke-virtual {v0, v1, v2}, Landroid/net/VpnService$Builder;->addRoute(Ljava/lang/String;I)Landroid/net/VpnService$Builder;
    const-string v1, "10.215.173.2"
    invoke-virtual {v0, v1}, Landroid/net/VpnService$Builder;->addDnsServer(Ljava/lang/String;)Landroid/net/VpnService$Builder;
    and-int/lit8 v1, v11, 0x1
    if-eqz v1, :no_ipv6
    const-string v1, "fd00:adb5::1"
    const/16 v2, 0x40
    invoke-virtual {v0, v1, v2}, Landroid/net/VpnService$Builder;->addAddress(Ljava/lang/String;I)Landroid/net/VpnService$Builder;
    const-string v1, "::"
    const/4 v2, 0x0
    invoke-virtual {v0, v1, v2}, Landroid/net/VpnService$Builder;->addRoute(Ljava/lang/String;I)Landroid/net/VpnService$Builder;
    const-string v1, "fd00:adb5::2"
    invoke-virtual {v0, v1}, Landroid/net/VpnService$Builder;->addDnsServer(Ljava/lang/String;)Landroid/net/VpnService$Builder;
    :no_ipv6
    if-eqz p2, :no_package
    invoke-virtual {v0, p2}, Landroid/net/VpnService$Builder;->addAllowedApplication(Ljava/lang/String;)Landroid/net/VpnService$Builder;
    :no_package
    and-int/lit8 v1, v11, 0x2
    if-eqz v1, :no_self
    invoke-virtual {p0}, Landroid/content/Context;->getPackageName()Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Landroid/net/VpnService$Builder;->addAllowedApplication(Ljava/lang/String;)Landroid/net/VpnService$Builder;
    :no_self
    sget v1, Landroid/os/Build$VERSION;->SDK_INT:I
    const/16 v2, 0x1d
    if-lt v1, v2, :before_29
    invoke-static {v0}, Lio/github/adbscope/agent/Api29;->setMetered(Landroid/net/VpnService$Builder;)V
    :before_29
    invoke-virtual {v0}, Landroid/net/VpnService$Builder;->establish()Landroid/os/ParcelFileDescriptor;
    move-result-object v0
    :try_end
    .catch Ljava/lang/Exception; {:try_start .. :try_end} :failed

    if-nez v0, :established
    # The consent was revoked between the dialog and here.
    const/4 v1, 0x1
    const/4 v2, 0x0
    invoke-static {v1, p2, v2}, Lio/github/adbscope/agent/AgentVpnService;->nativeEvent(ILjava/lang/String;Ljava/lang/String;)V
    const/4 v1, 0x0
    invoke-virtual {p0, v1}, Lio/github/adbscope/agent/AgentVpnService;->sessionEnded(Z)V
    return-void

    :established
    # The native side owns the fd from here on.
    invoke-virtual {v0}, Landroid/os/ParcelFileDescriptor;->detachFd()I
    move-result v1
    const/4 v9, 0x0
    sget v3, Landroid/os/Build$VERSION;->SDK_INT:I
    const/16 v2, 0x1d
    if-lt v3, v2, :no_helper
    new-instance v9, Lio/github/adbscope/agent/Api29;
    invoke-direct {v9, v6, v7}, Lio/github/adbscope/agent/Api29;-><init>(Landroid/net/ConnectivityManager;Landroid/net/Network;)V
    :no_helper
    move-object v0, p0
    move-object v2, p2
    move v3, v12
    move-object v8, v5
    move-object v5, v4
    move-object v4, v8
    move-object v6, v10
    move-object v7, v9
    const-string v8, "adbscope-agent"
    invoke-virtual/range {v0 .. v8}, Lio/github/adbscope/agent/AgentVpnService;->nativeStart(ILjava/lang/String;ILjava/lang/String;Ljava/lang/String;[Ljava/lang/String;Ljava/lang/Object;Ljava/lang/String;)V
    return-void

    :nothing
    return-void

    :failed
    # IllegalStateException, SecurityException, IllegalArgumentException,
    # PackageManager.NameNotFoundException: the native side names the code.
    move-exception v0
    invoke-virtual {v0}, Ljava/lang/Object;->toString()Ljava/lang/String;
    move-result-object v0
    const/4 v1, 0x2
    invoke-static {v1, p2, v0}, Lio/github/adbscope/agent/AgentVpnService;->nativeEvent(ILjava/lang/String;Ljava/lang/String;)V
    const/4 v1, 0x0
    invoke-virtual {p0, v1}, Lio/github/adbscope/agent/AgentVpnService;->sessionEnded(Z)V
    return-void
.end method

# Called by the native side when the session it started ended (true: stop
# the service too; false: keep it, so dumpsys still shows the error).
.method sessionEnded(Z)V
    .registers 3
    const/4 v0, 0x1
    invoke-virtual {p0, v0}, Landroid/app/Service;->stopForeground(I)V
    if-eqz p1, :keep
    invoke-virtual {p0}, Landroid/app/Service;->stopSelf()V
    :keep
    return-void
.end method

.method private goForeground()V
    .registers 6
    const-string v0, "notification"
    invoke-virtual {p0, v0}, Landroid/content/Context;->getSystemService(Ljava/lang/String;)Ljava/lang/Object;
    move-result-object v0
    check-cast v0, Landroid/app/NotificationManager;
    const-string v2, "agent"
    const-string v3, "notification_channel"
    invoke-direct {p0, v3}, Lio/github/adbscope/agent/AgentVpnService;->text(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v3
    const/4 v4, 0x2
    new-instance v1, Landroid/app/NotificationChannel;
    invoke-direct {v1, v2, v3, v4}, Landroid/app/NotificationChannel;-><init>(Ljava/lang/String;Ljava/lang/CharSequence;I)V
    invoke-virtual {v0, v1}, Landroid/app/NotificationManager;->createNotificationChannel(Landroid/app/NotificationChannel;)V
    const-string v3, "notification_title"
    invoke-direct {p0, v3}, Lio/github/adbscope/agent/AgentVpnService;->text(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v3
    new-instance v0, Landroid/app/Notification$Builder;
    invoke-direct {v0, p0, v2}, Landroid/app/Notification$Builder;-><init>(Landroid/content/Context;Ljava/lang/String;)V
    invoke-virtual {v0, v3}, Landroid/app/Notification$Builder;->setContentTitle(Ljava/lang/CharSequence;)Landroid/app/Notification$Builder;
    # android.R.drawable.stat_sys_download
    const v3, 0x1080081
    invoke-virtual {v0, v3}, Landroid/app/Notification$Builder;->setSmallIcon(I)Landroid/app/Notification$Builder;
    invoke-virtual {v0}, Landroid/app/Notification$Builder;->build()Landroid/app/Notification;
    move-result-object v0
    const/4 v1, 0x1
    invoke-virtual {p0, v1, v0}, Landroid/app/Service;->startForeground(ILandroid/app/Notification;)V
    return-void
.end method

# One of the app's strings (res/values/strings.xml) by name.
.method private text(Ljava/lang/String;)Ljava/lang/String;
    .registers 5
    invoke-virtual {p0}, Landroid/content/Context;->getResources()Landroid/content/res/Resources;
    move-result-object v0
    const-string v1, "string"
    invoke-virtual {p0}, Landroid/content/Context;->getPackageName()Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, p1, v1, v2}, Landroid/content/res/Resources;->getIdentifier(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)I
    move-result v0
    invoke-virtual {p0, v0}, Landroid/content/Context;->getString(I)Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method

# Each element's toString() (LinkAddress: ADDR/PREFIX; InetAddress: HOST/ADDR).
.method static strings(Ljava/util/List;)[Ljava/lang/String;
    .registers 5
    invoke-interface {p0}, Ljava/util/List;->size()I
    move-result v0
    new-array v1, v0, [Ljava/lang/String;
    const/4 v2, 0x0
    :loop
    if-ge v2, v0, :end
    invoke-interface {p0, v2}, Ljava/util/List;->get(I)Ljava/lang/Object;
    move-result-object v3
    invoke-virtual {v3}, Ljava/lang/Object;->toString()Ljava/lang/String;
    move-result-object v3
    aput-object v3, v1, v2
    add-int/lit8 v2, v2, 0x1
    goto :loop
    :end
    return-object v1
.end method

.method public onRevoke()V
    .registers 1
    invoke-static {}, Lio/github/adbscope/agent/AgentVpnService;->nativeStop()V
    invoke-super {p0}, Landroid/net/VpnService;->onRevoke()V
    return-void
.end method

.method public onDestroy()V
    .registers 1
    invoke-static {}, Lio/github/adbscope/agent/AgentVpnService;->nativeStop()V
    invoke-super {p0}, Landroid/app/Service;->onDestroy()V
    return-void
.end method
