# Api29: the calls that exist from Android 10 (API 29) on.  Loaded only when
# Build.VERSION.SDK_INT >= 29 (AgentVpnService checks first), so the verifier
# of an older phone never meets them.  The native side calls ownerUid and
# resolve on the engine's thread.
.class final Lio/github/adbscope/agent/Api29;
.super Ljava/lang/Object;
.source "Api29.smali"

.implements Ljava/util/concurrent/Executor;

.field final connectivity:Landroid/net/ConnectivityManager;
.field final network:Landroid/net/Network;


.method constructor <init>(Landroid/net/ConnectivityManager;Landroid/net/Network;)V
    .registers 3
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    iput-object p1, p0, Lio/github/adbscope/agent/Api29;->connectivity:Landroid/net/ConnectivityManager;
    iput-object p2, p0, Lio/github/adbscope/agent/Api29;->network:Landroid/net/Network;
    return-void
.end method

# Not metered: the VPN inherits the real network's meteredness (a VPN is
# metered by default from Android 10 on).
.method static setMetered(Landroid/net/VpnService$Builder;)V
    .registers 2
    const/4 v0, 0x0
    invoke-virtual {p0, v0}, Landroid/net/VpnService$Builder;->setMetered(Z)Landroid/net/VpnService$Builder;
    return-void
.end method

# The Executor of the DNS answers: run them where they arrive.
.method public execute(Ljava/lang/Runnable;)V
    .registers 2
    invoke-interface {p1}, Ljava/lang/Runnable;->run()V
    return-void
.end method

.method ownerUid(I[BI[BI)I
    .registers 10
    :try_start
    invoke-static {p2}, Ljava/net/InetAddress;->getByAddress([B)Ljava/net/InetAddress;
    move-result-object v1
    new-instance v0, Ljava/net/InetSocketAddress;
    invoke-direct {v0, v1, p3}, Ljava/net/InetSocketAddress;-><init>(Ljava/net/InetAddress;I)V
    invoke-static {p4}, Ljava/net/InetAddress;->getByAddress([B)Ljava/net/InetAddress;
    move-result-object v2
    new-instance v1, Ljava/net/InetSocketAddress;
    invoke-direct {v1, v2, p5}, Ljava/net/InetSocketAddress;-><init>(Ljava/net/InetAddress;I)V
    iget-object v2, p0, Lio/github/adbscope/agent/Api29;->connectivity:Landroid/net/ConnectivityManager;
    invoke-virtual {v2, p1, v0, v1}, Landroid/net/ConnectivityManager;->getConnectionOwnerUid(ILjava/net/InetSocketAddress;Ljava/net/InetSocketAddress;)I
    move-result v0
    :try_end
    .catch Ljava/lang/Exception; {:try_start .. :try_end} :failed
    return v0
    :failed
    const/4 v0, -0x1
    return v0
.end method

# The app's query, sent by the platform resolver on the real network; the
# answer (or null) goes back through AgentVpnService.nativeDnsAnswer.
.method resolve(JJ[B)V
    .registers 14
    new-instance v6, Lio/github/adbscope/agent/Api29$Answer;
    invoke-direct {v6, p1, p2, p3, p4}, Lio/github/adbscope/agent/Api29$Answer;-><init>(JJ)V
    invoke-static {}, Landroid/net/DnsResolver;->getInstance()Landroid/net/DnsResolver;
    move-result-object v0
    iget-object v1, p0, Lio/github/adbscope/agent/Api29;->network:Landroid/net/Network;
    move-object v2, p5
    const/4 v3, 0x0
    move-object v4, p0
    const/4 v5, 0x0
    invoke-virtual/range {v0 .. v6}, Landroid/net/DnsResolver;->rawQuery(Landroid/net/Network;[BILjava/util/concurrent/Executor;Landroid/os/CancellationSignal;Landroid/net/DnsResolver$Callback;)V
    return-void
.end method
