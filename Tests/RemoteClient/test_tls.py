"""The remote API over TLS: HTTPS with a CA or a pinned fingerprint, a kept self-signed
certificate beyond loopback, client certificates (mutual TLS), and the live view's session
cookie. Certificates are made at test time with openssl.

    python3 -m pytest -q Tests/RemoteClient/test_tls.py
"""

import hashlib
import http.client
import json
import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from glide_remote import HeadlessApp
from glide_remote.client import fingerprint_of, tls_context

TOKEN = "tls-Token-0001"

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificates")


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca(folder, name):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", f"/CN={name}", "-keyout", f"{name}.key", "-out", f"{name}.crt", cwd=folder)


def make_signed(folder, name, ca, subject, extensions):
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", subject,
            "-keyout", f"{name}.key", "-out", f"{name}.csr", cwd=folder)
    (folder / f"{name}.ext").write_text(extensions)
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.crt", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.crt", cwd=folder)
    (folder / f"{name}.key").chmod(0o600)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA with a server certificate for 127.0.0.1 and a fleet controller's client certificate,
    and another CA with a client certificate of its own."""
    folder = tmp_path_factory.mktemp("pki")
    make_ca(folder, "ca")
    make_ca(folder, "other-ca")
    make_signed(folder, "server", "ca", "/CN=kiosk-7",
                "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    make_signed(folder, "fleet", "ca", "/O=Example Fleet/CN=fleet-controller", "extendedKeyUsage=clientAuth\n")
    make_signed(folder, "stranger", "other-ca", "/CN=stranger", "extendedKeyUsage=clientAuth\n")
    return folder


def tls_args(pki, *more):
    return ["--app", "list", "--remote-tls-certificate", str(pki / "server.crt"),
            "--remote-tls-key", str(pki / "server.key"), *more]


def server_fingerprint(pki):
    der = ssl.PEM_cert_to_DER_cert((pki / "server.crt").read_text())
    return fingerprint_of(der)


def test_https_with_a_ca_or_a_pinned_fingerprint(glide_binary, pki):
    with HeadlessApp(glide_binary, args=tls_args(pki), token=TOKEN, clock="wall") as app:
        assert app.url.startswith("https://127.0.0.1:")
        shot = app.client(ca_file=pki / "ca.crt").screenshot()
        assert shot[:8] == b"\x89PNG\r\n\x1a\n"
        pinned = app.client(fingerprint=server_fingerprint(pki).lower().replace(":", ""))
        assert pinned.state()["display"] == {"on": True, "reason": "on"}
        # The system's CAs do not know the kiosk's; a wrong pin is refused after the handshake.
        with pytest.raises(urllib.error.URLError) as unknown:
            app.client().state()
        assert "CERTIFICATE_VERIFY_FAILED" in str(unknown.value)
        wrong = "AB:" * 31 + "AB"
        with pytest.raises(urllib.error.URLError) as mismatch:
            app.client(fingerprint=wrong).state()
        assert "not the pinned one" in str(mismatch.value)
        # Plain HTTP to the TLS port gets no reply of the API.
        with pytest.raises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
            urllib.request.urlopen(app.url.replace("https:", "http:") + "/state", timeout=5).read()
        # The live page's session cookie is Secure under TLS, expires, and is new at each login.
        cookies = [live_login(app.url, pki) for _ in range(2)]
        for cookie in cookies:
            assert "; Secure" in cookie and "HttpOnly" in cookie and "Max-Age=43200" in cookie
        assert cookies[0].split(";")[0] != cookies[1].split(";")[0]


def live_login(url, pki, cookie=None, path="/live", method="GET"):
    request = urllib.request.Request(url + path, method=method)
    if cookie is None:
        request.add_header("Authorization", f"Bearer {TOKEN}")
    else:
        request.add_header("Cookie", cookie)
    with urllib.request.urlopen(request, context=tls_context(pki / "ca.crt"), timeout=10) as r:
        return r.headers["Set-Cookie"] if method == "GET" else r.read()


def test_logout_ends_the_live_session(glide_binary, pki):
    with HeadlessApp(glide_binary, args=tls_args(pki), token=TOKEN, clock="wall") as app:
        cookie = live_login(app.url, pki).split(";")[0]
        # The cookie alone opens the page (no token sent) until its session is logged out.
        request = urllib.request.Request(app.url + "/live", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, context=tls_context(pki / "ca.crt"), timeout=10) as r:
            assert r.status == 200
        assert json.loads(live_login(app.url, pki, cookie, "/live/logout", "POST")) == {"sessions_ended": 1}
        with pytest.raises(urllib.error.HTTPError) as gone:
            urllib.request.urlopen(request, context=tls_context(pki / "ca.crt"), timeout=10)
        assert gone.value.code == 401


def test_client_certificates(glide_binary, pki, tmp_path):
    """With a client CA, only clients presenting a certificate it signed get through; such a
    client needs no token and is named by its certificate's subject in the audit log."""
    log = tmp_path / "log"
    with HeadlessApp(glide_binary, args=tls_args(pki, "--remote-client-ca", str(pki / "ca.crt")), clock="wall") as app:
        fleet = app.client(ca_file=pki / "ca.crt", client_cert=pki / "fleet.crt", client_key=pki / "fleet.key")
        fleet.key("End")
        assert fleet.wait_for_rest()["scrollViews"][0]["offset"][1] > 0
        for client in (app.client(ca_file=pki / "ca.crt"),
                       app.client(ca_file=pki / "ca.crt", client_cert=pki / "stranger.crt",
                                  client_key=pki / "stranger.key")):
            with pytest.raises((urllib.error.URLError, ConnectionError, ssl.SSLError)):
                client.state()
        log.write_text(app.log())
    audit = [line for line in log.read_text().splitlines() if "audit: POST /events" in line]
    assert len(audit) == 1
    assert "by 'CN=fleet-controller,O=Example Fleet' (admin)" in audit[0]


def test_a_kept_self_signed_certificate_beyond_loopback(glide_binary, tmp_path):
    """On a non-loopback address without a certificate, the app makes a key and a self-signed
    certificate once, keeps them in its state folder and logs the fingerprint; a client pins it,
    and the next start has the same one."""
    state = tmp_path / "state"
    env = dict(os.environ, STATE_DIRECTORY=str(state))
    fingerprints = []
    for _ in range(2):
        with HeadlessApp(glide_binary, args=["--app", "list"], token=TOKEN, clock="wall", address="0.0.0.0:0",
                         env=env) as app:
            assert app.url.startswith("https://0.0.0.0:")
            deadline = time.monotonic() + 10
            while not (m := re.search(r"SHA-256 fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})", app.log())):
                assert time.monotonic() < deadline, app.log()
                time.sleep(0.05)
            fingerprints.append(m.group(1))
            assert app.client(fingerprint=m.group(1)).state()["display"] == {"on": True, "reason": "on"}
    assert fingerprints[0] == fingerprints[1]
    key = state / "remote-tls-key.pem"
    assert key.stat().st_mode & 0o777 == 0o600
    der = ssl.PEM_cert_to_DER_cert((state / "remote-tls-certificate.pem").read_text())
    assert fingerprint_of(der) == fingerprints[0]
    assert hashlib.sha256(der).hexdigest().upper() == fingerprints[0].replace(":", "")


def test_a_key_others_may_read_is_refused(glide_binary, pki, tmp_path):
    loose = tmp_path / "loose.key"
    loose.write_bytes((pki / "server.key").read_bytes())
    loose.chmod(0o644)
    run = subprocess.run([glide_binary, "run", "--backend", "headless", "--remote", "127.0.0.1:0",
                          "--remote-tls-certificate", str(pki / "server.crt"), "--remote-tls-key", str(loose)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert f"{loose}: its mode is 644" in run.stderr
