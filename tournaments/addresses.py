"""Whom a limit counts: a client's network, not its one address.

An IPv6 client gets a whole /64 from its provider and may use any address in it (privacy
addresses rotate by themselves): counted per address, one phone or script is thousands of
clients (issue 34). So the limits key an IPv6 address by its /64, and an IPv4 address by
itself (a venue behind one NAT address is one client either way)."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

IPV6_PREFIX = 64


def network(address: str) -> str:
    """The key of `address` for a limit: "2001:db8:1:2::/64" for IPv6 (an IPv4 address mapped
    into IPv6 is the IPv4 address), the address itself for IPv4 (and anything unparsable)."""
    try:
        parsed = ipaddress.ip_address(address.strip().split("%")[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def client_address(request: HttpRequest) -> str:
    """The client's address: behind a trusted proxy, the one it says it forwarded for."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies and forwarded:
        addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
        if len(addresses) >= proxies:
            return addresses[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def client_network(request: HttpRequest) -> str:
    """The request's client (behind the trusted proxies) as a limit counts it."""
    return network(client_address(request))


def count(key: str, window: int) -> int:
    """One more under `key` (kept for `window` seconds): the count now. Atomic in Redis (add,
    then incr); the cache failing safe (yaniv_club.cache) counts in this process meanwhile."""
    cache.add(key, 0, window)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between the two calls
        cache.set(key, 1, window)
        return 1
