# Api29$Answer: one DNS query's callback (API 29, like Api29).
.class final Lio/github/adbscope/agent/Api29$Answer;
.super Ljava/lang/Object;
.source "Api29.smali"

.implements Landroid/net/DnsResolver$Callback;

.field final session:J
.field final id:J


.method constructor <init>(JJ)V
    .registers 5
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    iput-wide p1, p0, Lio/github/adbscope/agent/Api29$Answer;->session:J
    iput-wide p3, p0, Lio/github/adbscope/agent/Api29$Answer;->id:J
    return-void
.end method

.method public onAnswer(Ljava/lang/Object;I)V
    .registers 8
    iget-wide v0, p0, Lio/github/adbscope/agent/Api29$Answer;->session:J
    iget-wide v2, p0, Lio/github/adbscope/agent/Api29$Answer;->id:J
    check-cast p1, [B
    invoke-static {v0, v1, v2, v3, p1}, Lio/github/adbscope/agent/AgentVpnService;->nativeDnsAnswer(JJ[B)V
    return-void
.end method

.method public onError(Landroid/net/DnsResolver$DnsException;)V
    .registers 7
    iget-wide v0, p0, Lio/github/adbscope/agent/Api29$Answer;->session:J
    iget-wide v2, p0, Lio/github/adbscope/agent/Api29$Answer;->id:J
    const/4 v4, 0x0
    invoke-static {v0, v1, v2, v3, v4}, Lio/github/adbscope/agent/AgentVpnService;->nativeDnsAnswer(JJ[B)V
    return-void
.end method
