"""Where partner webhooks may go. Everywhere: an absolute https URL without credentials, fragment or
control characters (`check_url`; plain http only to a loopback host on a laptop). Outside the local
stage also: a host spelled as a DNS name or an IP literal,
whose every address is public (`is_public_address`). Registration checks the URL (`check_destination`);
each delivery checks the addresses it connects to the same way (`domain.partners.transport`).
Resolving through `getaddrinfo` is what catches every spelling of an address (`0x7f000001`,
`2130706433`, `0177.0.0.1`, `127.1`, `[::1]`): the C library reads them as a connection would."""

import ipaddress
import re
from urllib.parse import urlsplit

from core.errors import InvalidInput
from core.settings import get_settings
from domain.partners import transport

# A host name as DNS spells it (urlsplit gives it lower-cased; an IP literal is told apart below).
LABEL = r"[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?"
HOST_NAME = re.compile(rf"(?=.{{1,253}}$){LABEL}(\.{LABEL})*\.?")
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the last 32 bits
# IPv6 ranges refused whatever they carry: deprecated forms (IPv4-compatible, RFC 4291 2.5.5.1; site-local,
# RFC 3879), SIIT's IPv4-translated addresses (RFC 2765), and NAT64 for local use (RFC 8215), whose IPv4
# address sits where the prefix length puts it, all of them routed to an IPv4 network or a site's own.
REFUSED_IPV6 = tuple(
    ipaddress.ip_network(network) for network in ("::/96", "::ffff:0:0:0/96", "fec0::/10", "64:ff9b:1::/48")
)
ISATAP_IDS = (0x00005EFE, 0x02005EFE)  # RFC 5214: an interface id of 0000:5efe or 0200:5efe, then IPv4
MAX_URL_LENGTH = 2048
LOOPBACK_HOSTS = frozenset({"localhost"})


def check_url(url: str) -> str:
    """The endpoint URL as it will be called; InvalidInput unless it is an absolute https URL without
    credentials, fragment or control characters (http only to a loopback host, and only on a laptop:
    STAGE=local). Outside the local stage its host must resolve to public addresses only
    (`domain.partners.destinations`)."""
    url = url.strip()
    if any(ord(char) < 0x21 or 0x7F <= ord(char) <= 0x9F for char in url):
        raise InvalidInput.field("url", "WEBHOOK_URL_CONTROL_CHARACTERS")
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (a port that is not a number is refused here, not at delivery)
    except ValueError:
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_ABSOLUTE") from None
    if len(url) > MAX_URL_LENGTH or not parts.hostname or parts.scheme not in ("https", "http"):
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_ABSOLUTE")
    if parts.username or parts.password or parts.fragment:
        raise InvalidInput.field("url", "WEBHOOK_URL_CREDENTIALS_OR_FRAGMENT")
    if parts.scheme == "http" and not (get_settings().is_local and _is_loopback(parts.hostname)):
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_HTTPS")
    return url


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_destination(url: str, resolve: transport.Resolver | None = None) -> str:
    """`check_url`, and outside the local stage: a host spelled as a name or an IP literal whose every
    address (resolved now) is public. Registration calls it; delivery checks the addresses it connects to
    the same way (`is_public_address`)."""
    url = check_url(url)
    resolve = resolve or transport.system_resolver
    if get_settings().is_local:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not HOST_NAME.fullmatch(host) and not _is_ip_literal(host):
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_ABSOLUTE")
    try:
        addresses = [transport.parse_address(found) for found in resolve(host, parts.port or 443)]
    except (OSError, UnicodeError, ValueError):
        addresses = []
    if not addresses:
        raise InvalidInput.field("url", "WEBHOOK_URL_UNRESOLVABLE", host=host)
    if not all(is_public_address(address) for address in addresses):
        raise InvalidInput.field("url", "WEBHOOK_URL_INTERNAL_ADDRESS", host=host)
    return url


def is_public_address(address: transport.Address) -> bool:
    """Whether webhooks may go to `address`: a globally reachable unicast address. An IPv6 address in a
    range that routes to an IPv4 network or a site's own (`REFUSED_IPV6`) is refused, and one that carries
    an IPv4 address (mapped, 6to4, Teredo, NAT64, ISATAP) is judged by that one too."""
    if isinstance(address, ipaddress.IPv6Address):
        if any(address in network for network in REFUSED_IPV6):
            return False
        carried = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
        if address in NAT64 or (int(address) >> 32) & 0xFFFFFFFF in ISATAP_IDS:
            carried.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if not all(is_public_address(inside) for inside in carried if inside is not None):
            return False
    return address.is_global and not address.is_multicast


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True
