"""Verifies the X-Cronbeam-Signature header of a request Cronbeam sent (Python 3, standard library only).

The identity token (Authorization: Bearer <JWT>, ES256) needs an elliptic-curve
library, which the standard library lacks: use PyJWT with cryptography, e.g.
jwt.decode(token, key, algorithms=["ES256"], audience=..., issuer=...), with the
key from <issuer>/.well-known/target-jwks.json. See docs/signed-requests.md.
"""
import hashlib
import hmac
import json
import sys
import time


def verify_signature(header, secret, method, url, body, tolerance_seconds=300, now=None):
    """True when one of the header's v1 signatures is the job's and its timestamp is recent.

    url is the job's URL as saved in Cronbeam; body the raw body received ("" for none).
    """
    parts = [part.strip() for part in (header or "").split(",")]
    stamps = [part[2:] for part in parts if part.startswith("t=")]
    if not stamps or not stamps[0].isdigit():
        return False
    t = int(stamps[0])
    if abs((time.time() if now is None else now) - t) > tolerance_seconds:
        return False
    text = f"{t}.{method}.{url}.{body}".encode("utf-8")
    expected = hmac.new(secret.encode("utf-8"), text, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(part[3:], expected) for part in parts if part.startswith("v1="))


if __name__ == "__main__":
    # Run as a script, it reads one request as JSON on stdin (the test suite drives it so).
    request = json.load(sys.stdin)
    ok = verify_signature(request["headers"].get("x-cronbeam-signature"), request["secret"], request["method"], request["url"], request["body"])
    print(json.dumps({"signature": ok}))
