package io.github.adbscope.agent;

import android.app.Activity;
import android.content.Intent;
import android.net.VpnService;
import android.os.Bundle;

/** Asks for the VPN consent once, then hands the request to the service. */
public final class ControlActivity extends Activity {
    private static final int REQUEST_VPN = 1;

    @Override
    protected void onCreate(Bundle state) {
        super.onCreate(state);
        if (getIntent().hasExtra(AgentVpnService.EXTRA_STOP)) {
            startService(serviceIntent().setAction(AgentVpnService.ACTION_STOP));
            finish();
            return;
        }
        AgentVpnService.setState("waiting_consent", getIntent().getStringExtra(AgentVpnService.EXTRA_PACKAGE));
        Intent consent = VpnService.prepare(this);
        if (consent != null)
            startActivityForResult(consent, REQUEST_VPN);
        else
            onActivityResult(REQUEST_VPN, RESULT_OK, null);
    }

    @Override
    protected void onActivityResult(int request, int result, Intent data) {
        if (request == REQUEST_VPN && result == RESULT_OK)
            startForegroundService(serviceIntent().setAction(AgentVpnService.ACTION_START));
        else if (request == REQUEST_VPN)
            // Started so that the refusal is recorded where the desktop looks.
            startService(serviceIntent().setAction(AgentVpnService.ACTION_DENIED));
        finish();
    }

    private Intent serviceIntent() {
        Intent i = new Intent(this, AgentVpnService.class);
        i.putExtras(getIntent());
        return i;
    }
}
