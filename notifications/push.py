"""Web push on the wire: the site's VAPID keys (RFC 8292) and one encrypted message posted to
a phone's push service (RFC 8030, aes128gcm of RFC 8291), through pywebpush."""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import http.client
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid, VapidException
from pywebpush import WebPusher, WebPushException

from notifications import endpoints

# A push service keeps a message this long for a phone that is off (RFC 8030 §5.2).
TTL = 6 * 60 * 60
VAPID_LIFETIME = 12 * 60 * 60
# A push service's answer is a status and a short body; more is not read.
MAX_ANSWER = 64 * 1024


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


class Undelivered(Exception):
    """One message not delivered for a reason of this endpoint alone (a refused address, a
    redirect, no answer within the deadline, a signature refused): it fails that message and
    counts towards removing its subscription, never the batch."""


def _connect(parts: SplitResult, deadline: float) -> socket.socket:
    """A socket to one of the endpoint's public addresses, checked again once connected."""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    error: Exception = Undelivered("no address")
    for family, address in endpoints.check(parts.geturl()):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(remaining)
            sock.connect((address, port))
            endpoints.check_peer(parts, sock.getpeername()[0])
        except (OSError, endpoints.Refused) as failure:
            sock.close()
            error = failure
            continue
        if parts.scheme == "https":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
        return sock
    raise error


class _Connection(http.client.HTTPConnection):
    """http.client on a socket the caller opened (TLS already on it): no second resolution."""

    def __init__(self, sock: socket.socket, host: str) -> None:
        super().__init__(host)
        self.sock = sock

    def connect(self) -> None:  # the socket is already connected
        pass


def _exchange(parts: SplitResult, body: bytes, headers: dict[str, str], deadline: float) -> int:
    sock = _connect(parts, deadline)
    # The deadline is for the whole message (connect, send, the answer's headers and body):
    # a service dripping one byte every few seconds is cut off at it, not per read.
    cut = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, args=[sock])
    cut.start()
    try:
        connection = _Connection(sock, parts.netloc)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(MAX_ANSWER)
        if time.monotonic() >= deadline:
            raise Undelivered("no answer within the deadline")
        return int(response.status)
    except (OSError, http.client.HTTPException) as error:
        if time.monotonic() >= deadline:
            raise Undelivered("no answer within the deadline") from error
        raise
    finally:
        cut.cancel()
        sock.close()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def post(subscription_info: dict[str, object], data: str, tag: str) -> int:
    """Encrypt `data` for the phone and post it to its push service; the HTTP status (a
    redirect is a status like any other: never followed). A refused endpoint, a bad signature
    or the deadline (NOTIFICATIONS_TIMEOUT, whole message) raise Undelivered; a network
    failure raises OSError or http.client's exception."""
    endpoint = str(subscription_info["endpoint"])
    deadline = time.monotonic() + settings.NOTIFICATIONS_TIMEOUT
    try:
        parts = endpoints.shape(endpoint)
        headers = vapid_headers(endpoint)
        body = WebPusher(subscription_info).encode(data.encode(), "aes128gcm")["body"]
    except (endpoints.Refused, VapidException, WebPushException, ValueError, TypeError) as error:
        raise Undelivered(str(error)) from error
    headers.update(
        {
            "Topic": topic(tag),
            "Urgency": "normal",
            "TTL": str(TTL),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Content-Length": str(len(body)),
            "Connection": "close",
        }
    )
    try:
        return _exchange(parts, body, headers, deadline)
    except endpoints.Refused as error:
        raise Undelivered(str(error)) from error
