"""A push service on loopback for the tests (RFC 8030): each phone is an endpoint
/push/<token>; every message posted there is checked (VAPID, RFC 8292) and decrypted with the
phone's own private key and auth secret (RFC 8291, aes128gcm), as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Phone:
    """A browser's push subscription: its keys stay here; the site gets the public half."""

    token: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        return _b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return _b64url(self.auth_secret)

    @property
    def keys(self) -> dict[str, str]:
        return {"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth}


@dataclass
class Received:
    token: str
    message: dict[str, Any]
    topic: str
    vapid_key: str
    at: float


@dataclass
class PushService:
    url: str = ""
    phones: dict[str, Phone] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    # token → the status the service answers for it (404/410: gone; 500: a bad moment).
    answers: dict[str, int] = field(default_factory=dict)
    # Seconds to wait before answering (a slow service, for the worker's death mid-send).
    delay: float = 0.0
    # Where a 3xx answer points (a redirect the worker must not follow).
    redirect_to: str = ""
    # Tokens answered with headers, then one byte every `drip` seconds, for ever (a service
    # holding the worker); how many bytes each got out before the worker hung up.
    dripping: set[str] = field(default_factory=set)
    drip: float = 0.2
    dripped: dict[str, int] = field(default_factory=dict)
    posts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def phone(self) -> Phone:
        token = _b64url(os.urandom(12))
        phone = Phone(
            token,
            f"{self.url}/push/{token}",
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
        )
        self.phones[token] = phone
        return phone

    def texts(self, phone: Phone) -> list[str]:
        with self.lock:
            return [r.message["body"] for r in self.received if r.token == phone.token]

    def handle(self, token: str, headers: Any, body: bytes) -> int:
        with self.lock:
            self.posts += 1
        phone = self.phones.get(token)
        if phone is None:
            return 404
        if token in self.answers:
            return self.answers[token]
        scheme, _, params = headers.get("Authorization", "").partition(" ")
        vapid = dict(part.strip().split("=", 1) for part in params.split(","))
        assert scheme == "vapid" and vapid["t"].count(".") == 2
        assert headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            body, private_key=phone.key, auth_secret=phone.auth_secret, version="aes128gcm"
        )
        with self.lock:
            self.received.append(
                Received(token, json.loads(plain), headers["Topic"], vapid["k"], time.monotonic())
            )
        return 201


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    service: PushService

    def do_POST(self) -> None:  # noqa: N802 - the http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.service.delay:
            time.sleep(self.service.delay)
        token = self.path.removeprefix("/push/")
        if token in self.service.dripping:
            self._drip(token)
            return
        status = self.service.handle(token, self.headers, body)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        if status == 201:
            self.send_header("Location", f"{self.service.url}/message/{token}")
        if 300 <= status < 400:
            self.send_header("Location", self.service.redirect_to)
        self.end_headers()

    def _drip(self, token: str) -> None:
        self.send_response(201)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.service.dripped[token] = 0
        try:
            for _ in range(100000):
                self.wfile.write(b"x")
                self.wfile.flush()
                self.service.dripped[token] += 1
                time.sleep(self.service.drip)
        except OSError:  # the worker hung up
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass


def start() -> tuple[PushService, ThreadingHTTPServer]:
    service = PushService()
    handler = type("Handler", (_Handler,), {"service": service})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return service, server
