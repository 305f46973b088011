# ControlActivity: what `adb shell am start -n io.github.adbscope.agent/.ControlActivity
# -e package PKG [-e token T] [-e selftest HOST:PORT]` (or -e stop 1) starts.
# Protected by android.permission.DUMP in the manifest: the shell (adb) and
# root hold it, apps cannot.  It exists for the VPN consent dialog: it
# starts the service with a state-only action first (so dumpsys shows
# waiting_consent while the dialog is up), asks, and hands the request on.
.class public final Lio/github/adbscope/agent/ControlActivity;
.super Landroid/app/Activity;
.source "ControlActivity.smali"


.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Landroid/app/Activity;-><init>()V
    return-void
.end method

# An intent for the service with this activity's extras and @action.
.method private service(Ljava/lang/String;)Landroid/content/Intent;
    .registers 5
    invoke-virtual {p0}, Landroid/app/Activity;->getIntent()Landroid/content/Intent;
    move-result-object v1
    const-class v2, Lio/github/adbscope/agent/AgentVpnService;
    new-instance v0, Landroid/content/Intent;
    invoke-direct {v0, p0, v2}, Landroid/content/Intent;-><init>(Landroid/content/Context;Ljava/lang/Class;)V
    invoke-virtual {v0, v1}, Landroid/content/Intent;->putExtras(Landroid/content/Intent;)Landroid/content/Intent;
    invoke-virtual {v0, p1}, Landroid/content/Intent;->setAction(Ljava/lang/String;)Landroid/content/Intent;
    return-object v0
.end method

.method protected onCreate(Landroid/os/Bundle;)V
    .registers 5
    invoke-super {p0, p1}, Landroid/app/Activity;->onCreate(Landroid/os/Bundle;)V
    invoke-virtual {p0}, Landroid/app/Activity;->getIntent()Landroid/content/Intent;
    move-result-object v0
    const-string v1, "stop"
    invoke-virtual {v0, v1}, Landroid/content/Intent;->hasExtra(Ljava/lang/String;)Z
    move-result v1
    if-eqz v1, :start
    const-string v1, "io.github.adbscope.agent.STOP"
    invoke-direct {p0, v1}, Lio/github/adbscope/agent/ControlActivity;->service(Ljava/lang/String;)Landroid/content/Intent;
    move-result-object v1
    invoke-virtual {p0, v1}, Landroid/content/Context;->startService(Landroid/content/Intent;)Landroid/content/ComponentName;
    invoke-virtual {p0}, Landroid/app/Activity;->finish()V
    return-void

    :start
    const-string v1, "io.github.adbscope.agent.CONSENT"
    invoke-direct {p0, v1}, Lio/github/adbscope/agent/ControlActivity;->service(Ljava/lang/String;)Landroid/content/Intent;
    move-result-object v1
    invoke-virtual {p0, v1}, Landroid/content/Context;->startService(Landroid/content/Intent;)Landroid/content/ComponentName;
    invoke-static {p0}, Landroid/net/VpnService;->prepare(Landroid/content/Context;)Landroid/content/Intent;
    move-result-object v1
    if-nez v1, :ask
    # Consented before: straight on.
    const/4 v1, 0x1
    const/4 v2, -0x1
    const/4 v0, 0x0
    invoke-virtual {p0, v1, v2, v0}, Lio/github/adbscope/agent/ControlActivity;->onActivityResult(IILandroid/content/Intent;)V
    return-void
    :ask
    const/4 v2, 0x1
    invoke-virtual {p0, v1, v2}, Landroid/app/Activity;->startActivityForResult(Landroid/content/Intent;I)V
    return-void
.end method

.method protected onActivityResult(IILandroid/content/Intent;)V
    .registers 6
    const/4 v0, 0x1
    if-ne p1, v0, :done
    const/4 v0, -0x1
    if-ne p2, v0, :denied
    const-string v0, "io.github.adbscope.agent.START"
    invoke-direct {p0, v0}, Lio/github/adbscope/agent/ControlActivity;->service(Ljava/lang/String;)Landroid/content/Intent;
    move-result-object v0
    invoke-virtual {p0, v0}, Landroid/content/Context;->startForegroundService(Landroid/content/Intent;)Landroid/content/ComponentName;
    goto :done
    :denied
    # Recorded where the desktop looks.
    const-string v0, "io.github.adbscope.agent.DENIED"
    invoke-direct {p0, v0}, Lio/github/adbscope/agent/ControlActivity;->service(Ljava/lang/String;)Landroid/content/Intent;
    move-result-object v0
    invoke-virtual {p0, v0}, Landroid/content/Context;->startService(Landroid/content/Intent;)Landroid/content/ComponentName;
    :done
    invoke-virtual {p0}, Landroid/app/Activity;->finish()V
    return-void
.end method
