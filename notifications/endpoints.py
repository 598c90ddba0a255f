"""Which push endpoints the site will post to: a phone's push service on the internet, never
the site's own network.

An endpoint comes from an anonymous visitor, and the worker posts to it with the site's VAPID
signature: left unchecked, anyone could make the worker reach a loopback port, the venue's
router or a cloud's metadata address (issue 34). So an endpoint must look like a push
service's (https, a host name, the default port, no user or fragment), and every address its
host resolves to must be public: checked when the phone subscribes, and again when each
message is sent, on the address the socket actually connects to (a name that resolved to a
public address at subscribe time may point at loopback later).

The choice: public addresses, not an allow-list of push service hosts. Browsers use several
push services (Google's, Mozilla's, Apple's, Microsoft's, Samsung's, …) and new ones appear;
an allow-list would silently drop phones. A site that wants one sets NOTIFICATIONS_PUSH_HOSTS
(host names; a leading dot for a domain and its subdomains), checked on top of the addresses.
NOTIFICATIONS_LOCAL_SERVICES names the host:port pairs that may be private (the tests' push
service on loopback), nothing else.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """An endpoint the site will not post to; the message says why, in the visitor's words."""


def is_public(address: Address) -> bool:
    """An address on the internet: not loopback, private, link-local, multicast, reserved,
    unspecified, shared (CGN) or an IPv4 address wrapped in IPv6 (mapped, 6to4, Teredo)."""
    if isinstance(address, ipaddress.IPv6Address) and (
        address.ipv4_mapped or address.sixtofour or address.teredo
    ):
        return False
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_loopback
        or address.is_link_local
        or address.is_private
        or address.is_unspecified
    )


def _is_local_service(parts: SplitResult) -> bool:
    return f"{parts.hostname}:{parts.port}" in settings.NOTIFICATIONS_LOCAL_SERVICES


def _host_allowed(host: str) -> bool:
    allowed = settings.NOTIFICATIONS_PUSH_HOSTS
    return not allowed or any(
        host == name or (name.startswith(".") and host.endswith(name)) for name in allowed
    )


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def shape(endpoint: str) -> SplitResult:
    """The endpoint's parts if it has a push service's shape, else Refused."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError as error:
        raise Refused(gettext("This is not a push service's address.")) from error
    host = (parts.hostname or "").rstrip(".")
    if _is_local_service(parts):
        schemes = {"https", "http"} if settings.NOTIFICATIONS_ALLOW_HTTP else {"https"}
        if parts.scheme not in schemes:
            raise Refused(gettext("A push service's address starts with https."))
        return parts
    if parts.scheme != "https":
        raise Refused(gettext("A push service's address starts with https."))
    if (
        parts.username is not None
        or parts.password is not None
        or parts.fragment
        or port not in (None, 443)
        or not host
        or "." not in host
        or _is_ip_literal(host)
        or not parts.path.strip("/")
        or not _host_allowed(host)
    ):
        raise Refused(gettext("This is not a push service's address."))
    return parts


def resolve(parts: SplitResult) -> list[tuple[socket.AddressFamily, str]]:
    """(family, address) of each address the endpoint's host resolves to, all public, or
    Refused: one private address among public ones is enough to refuse (a name may round-robin
    onto the site's network)."""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Refused(gettext("This push service's address does not resolve.")) from error
    addresses = [(family, str(sockaddr[0]).split("%")[0]) for family, _, _, _, sockaddr in found]
    if not addresses:
        raise Refused(gettext("This push service's address does not resolve."))
    if not _is_local_service(parts):
        for _, address in addresses:
            if not is_public(ipaddress.ip_address(address)):
                raise Refused(gettext("This push service is not on the internet."))
    return addresses


def check(endpoint: str) -> list[tuple[socket.AddressFamily, str]]:
    """The public addresses to post `endpoint`'s messages to, or Refused."""
    return resolve(shape(endpoint))


def check_peer(parts: SplitResult, peer: str) -> None:
    """After connecting: the address the socket reached is public too."""
    if not _is_local_service(parts) and not is_public(ipaddress.ip_address(peer.split("%")[0])):
        raise Refused(gettext("This push service is not on the internet."))
