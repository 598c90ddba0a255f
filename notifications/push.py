"""Web push on the wire: the site's VAPID keys (RFC 8292) and one encrypted message posted to
a phone's push service (RFC 8030, aes128gcm of RFC 8291), through pywebpush."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

# A push service keeps a message this long for a phone that is off (RFC 8030 §5.2).
TTL = 6 * 60 * 60
VAPID_LIFETIME = 12 * 60 * 60


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_vapid_keys() -> tuple[str, str]:
    """(private, public): the private key's 32 bytes and the public point's 65, base64url;
    the public one is the browser's applicationServerKey."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def enabled() -> bool:
    """The site sends notifications only with its VAPID keys in the environment."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


@functools.cache
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


@dataclass
class _Signature:
    headers: dict[str, str]
    until: float


_signatures: dict[str, _Signature] = {}


def vapid_headers(endpoint: str) -> dict[str, str]:
    """The VAPID Authorization header for the endpoint's push service, signed once per
    service and renewed before it expires (one signature for 200 phones on one service)."""
    parts = urlsplit(endpoint)
    audience = f"{parts.scheme}://{parts.netloc}"
    now = time.time()
    kept = _signatures.get(audience)
    if kept is None or kept.until < now + 60:
        expires = int(now) + VAPID_LIFETIME
        claims = {"sub": settings.VAPID_SUBJECT, "aud": audience, "exp": expires}
        headers = dict(_vapid(settings.VAPID_PRIVATE_KEY).sign(claims))
        kept = _signatures[audience] = _Signature(headers, expires)
    return dict(kept.headers)


def payload(title: str, body: str, url: str, tag: str, stop_url: str, stop_label: str) -> str:
    """What the service worker's push handler reads (static/js, templates/…/sw.js)."""
    return json.dumps(
        {
            "title": title,
            "body": body,
            "url": url,
            "tag": tag,
            "stop": {"url": stop_url, "label": stop_label},
        },
        ensure_ascii=False,
    )


def topic(tag: str) -> str:
    """RFC 8030 §5.4: a message sent again (after a worker died mid-send) replaces the
    first one still waiting at the push service; at most 32 characters of base64url."""
    return b64url(hashlib.sha256(tag.encode()).digest())[:32]


def post(
    subscription_info: dict[str, object],
    data: str,
    tag: str,
    session: requests.Session,
) -> int:
    """Encrypt `data` for the phone and post it to its push service; the HTTP status.
    A network failure raises requests' exception (the caller retries)."""
    headers = {**vapid_headers(str(subscription_info["endpoint"])), "Topic": topic(tag)}
    headers["Urgency"] = "normal"
    response = WebPusher(subscription_info, requests_session=session).send(
        data,
        headers,
        ttl=TTL,
        content_encoding="aes128gcm",
        timeout=settings.NOTIFICATIONS_TIMEOUT,
    )
    return int(response.status_code)
