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
NAT64 = ipaddress.ip_network("64:ff9b::/96")
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
    """Whether webhooks may go to `address`: a globally reachable unicast address. An IPv6 address that
    carries an IPv4 one (mapped, 6to4, Teredo, NAT64) is judged by that one too."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
        if carried is None and address in NAT64:
            carried = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if carried is not None and not is_public_address(carried):
            return False
    return address.is_global and not address.is_multicast


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True
