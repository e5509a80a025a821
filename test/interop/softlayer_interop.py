"""Interop checks: the reference Python client of this API (PyPI `SoftLayer` 6.2.9, unchanged)
against the Svc API emulator, through a loopback proxy that renames `SoftLayer_` to `Svc_` in
requests and back in responses (test/interop/softlayer-python.test.ts starts both).

Prints one line per check (`ok - <name>` or `FAIL - <name>: <why>`) and last `N passed, M failed`;
exits 1 when a check failed. Never prints a credential: keys, passwords and tokens stay in
variables.

Environment: SVC_INTEROP_ENDPOINT (the proxy's XML-RPC endpoint), SVC_INTEROP_USERNAME and
SVC_INTEROP_API_KEY (an API-key user), SVC_INTEROP_OPS_USERNAME, SVC_INTEROP_OPS_PASSWORD,
SVC_INTEROP_OPS_QUESTION_ID and SVC_INTEROP_OPS_ANSWER (a password user with a security question),
SVC_INTEROP_DEAD_ENDPOINT (an endpoint nothing listens on).
"""
import os
import sys
import traceback

import SoftLayer
from SoftLayer import exceptions, utils

ENV = os.environ
ENDPOINT = ENV["SVC_INTEROP_ENDPOINT"]
USERNAME = ENV["SVC_INTEROP_USERNAME"]
API_KEY = ENV["SVC_INTEROP_API_KEY"]
OPS_USERNAME = ENV["SVC_INTEROP_OPS_USERNAME"]
OPS_PASSWORD = ENV["SVC_INTEROP_OPS_PASSWORD"]
OPS_QUESTION_ID = int(ENV["SVC_INTEROP_OPS_QUESTION_ID"])
OPS_ANSWER = ENV["SVC_INTEROP_OPS_ANSWER"]
DEAD_ENDPOINT = ENV["SVC_INTEROP_DEAD_ENDPOINT"]

ORDER_BY_ID = {"operation": "orderBy", "options": [{"name": "sort", "value": ["ASC"]}]}

client = SoftLayer.create_client_from_env(
    username=USERNAME, api_key=API_KEY, endpoint_url=ENDPOINT, timeout=60
)
state = {}
results = []


def check(name):
    """Runs the decorated function now, as one named check."""

    def run(fn):
        try:
            fn()
        except Exception as err:  # a failed check is reported, the others still run
            results.append(False)
            frames = traceback.extract_tb(err.__traceback__)
            mine = [f for f in frames if f.filename == __file__ and f.name == "_"]
            where = (mine or frames)[-1]
            print(f"FAIL - {name}: {type(err).__name__}: {err} (line {where.lineno})", flush=True)
        else:
            results.append(True)
            print(f"ok - {name}", flush=True)
        return fn

    return run


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def expect_fault(call, cls, code, text=None):
    """`call()` raises `cls` with faultCode `code` (and `text` in faultString); returns it."""
    try:
        call()
    except cls as err:
        expect(err.faultCode == code, f"faultCode {err.faultCode!r}, expected {code!r}")
        if text is not None:
            expect(text in err.faultString, f"faultString {err.faultString!r} lacks {text!r}")
        return err
    raise AssertionError(f"no {cls.__name__} raised")


def titles(tickets):
    return sorted(t["title"] for t in tickets)


# --- authentication -------------------------------------------------------------------------


@check("API key authentication (authenticate header)")
def _():
    account = client["Account"].getObject(mask="mask[id,companyName]")
    expect(sorted(account) == ["companyName", "id"], f"keys {sorted(account)}")
    state["account_id"] = account["id"]
    expect(client["Account"].getCurrentUser(mask="username")["username"] == USERNAME, "user")


@check("password login with a security question (getPortalLoginToken, then token auth)")
def _():
    portal = SoftLayer.Client(endpoint_url=ENDPOINT, timeout=60)
    user_id, token = portal.authenticate_with_password(
        OPS_USERNAME, OPS_PASSWORD, OPS_QUESTION_ID, OPS_ANSWER
    )
    expect(isinstance(portal.auth, SoftLayer.TokenAuthentication), f"auth {portal.auth!r}")
    expect(isinstance(user_id, int) and len(token) >= 32, "a user id and a token")
    me = portal["Account"].getCurrentUser(mask="mask[id,username]")
    expect(me == {"id": user_id, "username": OPS_USERNAME}, f"current user {me}")
    company = portal["Account"].getObject(mask="companyName")["companyName"]
    expect(company == "Svc Demo Company", company)


@check("password login refused: no answer, wrong answer, wrong password")
def _():
    portal = SoftLayer.Client(endpoint_url=ENDPOINT, timeout=60)
    login = portal.authenticate_with_password
    fault = "SoftLayer_Exception_Public"
    expect_fault(lambda: login(OPS_USERNAME, OPS_PASSWORD), exceptions.SoftLayerAPIError, fault,
                 "security question")
    expect(portal.auth is None, "a failed login leaves no credentials")
    expect_fault(lambda: login(OPS_USERNAME, OPS_PASSWORD, OPS_QUESTION_ID, "not-" + OPS_ANSWER),
                 exceptions.SoftLayerAPIError, fault, "Invalid security question answer")
    expect_fault(lambda: login(OPS_USERNAME, "x" + OPS_PASSWORD, OPS_QUESTION_ID, OPS_ANSWER),
                 exceptions.SoftLayerAPIError, fault, "Invalid username/password")


@check("a wrong API key is refused")
def _():
    wrong = SoftLayer.create_client_from_env(
        username=USERNAME, api_key="0" * 64, endpoint_url=ENDPOINT, timeout=60
    )
    expect_fault(lambda: wrong["Account"].getObject(), exceptions.SoftLayerAPIError,
                 "SoftLayer_Exception_Public", "Invalid API token")


# --- masks ----------------------------------------------------------------------------------


@check("object masks in both spellings, dotted and nested, and as a legacy struct")
def _():
    account = client["Account"]
    bare = account.getObject(mask="id,companyName")
    for mask in ("mask[id,companyName]", "mask.id,mask.companyName", "[mask.id,mask.companyName]"):
        got = account.getObject(mask=mask)
        expect(got == bare, f"{mask}: {got}")
    legacy = client.call("Account", "getObject", mask={"id": None, "companyName": None})
    expect(legacy == bare, f"struct mask: {legacy}")
    nested = account.getHardware(mask="mask[hostname,datacenter[name,longName]]")
    dotted = account.getHardware(mask="hostname,datacenter.name,datacenter.longName")
    expect(nested == dotted and len(nested) >= 2, f"{nested} vs {dotted}")
    expect(all(set(h) == {"hostname", "datacenter"} for h in nested), f"{nested}")


@check("a mask naming an unknown property faults with the type's name")
def _():
    err = expect_fault(lambda: client["Account"].getObject(mask="mask[id,companyNmae]"),
                       exceptions.SoftLayerAPIError, "SoftLayer_Exception_Public",
                       "'companyNmae' not valid for 'SoftLayer_Account'")
    expect(str(err).startswith("SoftLayerAPIError(SoftLayer_Exception_Public): "), str(err))


# --- filters --------------------------------------------------------------------------------


@check("object filters: operators (*=, ^=, $=, _=, ~, !~, in, >, orderBy) and query_filter")
def _():
    def tickets(**leaf):
        return client["Account"].getTickets(mask="mask[id,title,statusId]",
                                            filter={"tickets": leaf})

    everything = tickets(id=ORDER_BY_ID)
    expect(len(everything) == 3, f"{len(everything)} seeded tickets")
    by = lambda op: titles(tickets(title={"operation": op}))  # noqa: E731
    expect(by("*= invoice") == ["Question about the February invoice"], by("*= invoice"))
    expect(by("^= disk") == ["Disk warning on db01"], by("^= disk"))
    expect(by("$= 192.0.2.10") == ["Reverse DNS for 192.0.2.10"], by("$= 192.0.2.10"))
    expect(by("_= DISK WARNING ON DB01") == ["Disk warning on db01"], by("_= DISK..."))
    expect(by("~ ^[DR]") == ["Disk warning on db01", "Reverse DNS for 192.0.2.10"], by("~"))
    expect(by("!~ ^[DR]") == ["Question about the February invoice"], by("!~"))
    sugar = titles(tickets(title=utils.query_filter("*FEBRUARY*")))
    expect(sugar == ["Question about the February invoice"], f"query_filter: {sugar}")
    closed = tickets(statusId={"operation": "in", "options": [{"name": "data", "value": [1002]}]})
    expect(titles(closed) == ["Reverse DNS for 192.0.2.10"], titles(closed))
    first = min(t["id"] for t in everything)
    later = tickets(id={"operation": "> %d" % first})
    expect(len(later) == 2, f"> id: {len(later)}")
    newest_first = client["Account"].getTickets(
        mask="title",
        filter={"tickets": {"createDate": {"operation": "orderBy",
                                            "options": [{"name": "sort", "value": ["DESC"]}]}}})
    expect([t["title"] for t in newest_first][0] == "Question about the February invoice",
           f"orderBy DESC: {newest_first}")


@check("object filters on dates: betweenDate (query_filter_date), greaterThanDate, lessThanDate")
def _():
    def created(operation):
        return titles(client["Account"].getTickets(
            mask="title", filter={"tickets": {"createDate": operation}}))

    between = created(utils.query_filter_date("2026-02-01", "2026-03-02"))
    expect(between == ["Question about the February invoice", "Reverse DNS for 192.0.2.10"],
           f"betweenDate: {between}")
    after = created({"operation": "greaterThanDate",
                     "options": [{"name": "date", "value": ["02/15/2026"]}]})
    expect(after == ["Question about the February invoice"], f"greaterThanDate: {after}")
    before = created({"operation": "lessThanDate",
                      "options": [{"name": "date", "value": ["1/31/2026 0:0:0"]}]})
    expect(before == ["Disk warning on db01"], f"lessThanDate: {before}")


@check("an unknown property in a filter faults")
def _():
    bad = {"tickets": {"titel": {"operation": "x"}}}
    expect_fault(lambda: client["Account"].getTickets(filter=bad),
                 exceptions.SoftLayerAPIError, "SoftLayer_Exception_Public", "'titel' not valid")


# --- paging ---------------------------------------------------------------------------------


@check("paging: limit/offset, SoftLayer-Total-Items, iter_call and call(iter=True)")
def _():
    by_name = {"domains": {"name": {"operation": "example.com"}}}
    zone_id = client["Account"].getDomains(filter=by_name, mask="id")[0]["id"]
    state["zone_id"] = zone_id
    service = client["Dns_Domain"]
    everything = service.getResourceRecords(id=zone_id, mask="id",
                                            filter={"resourceRecords": {"id": ORDER_BY_ID}})
    ids = [r["id"] for r in everything]
    expect(len(ids) >= 5, f"{len(ids)} records")
    page = client.call("Dns_Domain", "getResourceRecords", id=zone_id, mask="id", limit=2, offset=2)
    expect(hasattr(page, "total_count"), "a list result with its total")
    expect(page.total_count == len(ids), f"total_count {page.total_count} of {len(ids)}")
    expect([r["id"] for r in page] == ids[2:4], f"page {[r['id'] for r in page]}")
    walked = [r["id"] for r in client.iter_call("Dns_Domain", "getResourceRecords", id=zone_id,
                                                  mask="id", limit=2)]
    expect(walked == ids, f"iter_call {walked} vs {ids}")
    listed = client.call("Dns_Domain", "getResourceRecords", id=zone_id, mask="id", iter=True,
                         limit=3)
    expect([r["id"] for r in listed] == ids, "call(iter=True)")


# --- virtual guests through VSManager -------------------------------------------------------


vs = SoftLayer.VSManager(client)
GUEST = dict(hostname="interop-vs", domain="example.com", cpus=2, memory=4096, hourly=True,
             datacenter="dal13", os_code="UBUNTU_LATEST", local_disk=False, nic_speed=1000,
             disks=[25, 100], userdata="#cloud-config", post_uri="https://example.com/setup.sh")


@check("VSManager.verify_create_instance prices the order at the datacenter")
def _():
    here = vs.verify_create_instance(**GUEST)
    expect(here["location"] == "1854895", f"dal13 location {here['location']}")
    expect(all(p["locationGroupId"] is None for p in here["prices"]), "default prices in dal13")
    toronto = vs.verify_create_instance(**dict(GUEST, datacenter="tor01"))
    expect(all(p["locationGroupId"] == 503 for p in toronto["prices"]), "Location Group 2 prices")
    expect(float(toronto["postTaxRecurringHourly"]) > float(here["postTaxRecurringHourly"]),
           "tor01 costs more")
    expect(vs.list_instances(hostname="interop-vs") == [], "nothing ordered")


@check("VSManager.create_instance, then wait_for_ready")
def _():
    guest = vs.create_instance(tags="interop,python", **GUEST)
    state["guest_id"] = guest["id"]
    expect(guest["hostname"] == "interop-vs", f"created {guest.get('hostname')}")
    expect(vs.wait_for_ready(guest["id"], limit=120, delay=1) is True, "ready within the limit")


@check("VSManager.get_instance with its default mask")
def _():
    g = vs.get_instance(state["guest_id"])
    expect(g["datacenter"]["name"] == "dal13" and g["maxCpu"] == 2 and g["maxMemory"] == 4096,
           "size and place")
    expect(g["provisionDate"] and g["powerState"]["keyName"] == "RUNNING", "provisioned, running")
    spaces = sorted(n["primarySubnet"]["addressSpace"] for n in g["networkComponents"])
    expect(spaces == ["PRIVATE", "PUBLIC"], f"subnets {spaces}")
    expect(all(n["maxSpeed"] == 1000 and n["securityGroupBindings"] == []
               for n in g["networkComponents"]), "NICs")
    expect(sorted(v["networkSpace"] for v in g["networkVlans"]) == ["PRIVATE", "PUBLIC"], "VLANs")
    os_code = g["operatingSystem"]["softwareLicense"]["softwareDescription"]["referenceCode"]
    expect(os_code == "UBUNTU_24_64", os_code)
    expect([b["device"] for b in g["blockDevices"]] == ["0", "1", "2"], "disks and swap")
    billing = g["billingItem"]
    expect(billing["package"]["keyName"] == "PUBLIC_CLOUD_SERVER", "package")
    expect(billing["orderItem"]["order"]["userRecord"]["username"] == USERNAME, "ordered by")
    parts = [c["categoryCode"] for c in billing["children"]]
    expect(parts == ["ram", "os", "port_speed", "guest_disk0", "guest_disk1"], f"children {parts}")
    expect(sorted(t["tag"]["name"] for t in g["tagReferences"]) == ["interop", "python"], "tags")
    expect(g["userData"] == [{"value": "#cloud-config"}], "user data")
    expect(g["lastTransaction"]["transactionGroup"]["name"], "last transaction")


@check("VSManager.list_instances filters (datacenter, tags, hostname, cpus) and resolve_ids")
def _():
    guest_id = state["guest_id"]
    for kwargs in ({"datacenter": "dal13"}, {"tags": ["interop"]}, {"hostname": "interop-vs"},
                   {"cpus": 2, "memory": 4096, "nic_speed": 1000},
                   {"hourly": True, "monthly": False},
                   {"local_disk": False}, {"transient": False}):
        found = [g["id"] for g in vs.list_instances(**kwargs)]
        expect(guest_id in found, f"{kwargs}: {found}")
    expect(vs.list_instances(hourly=False, monthly=True, hostname="interop-vs") == [], "monthly")
    expect(vs.list_instances(datacenter="lon06", hostname="interop-vs") == [], "elsewhere")
    expect(vs.resolve_ids("interop-vs") == [guest_id], "by hostname")
    public_ip = vs.get_instance(guest_id, mask="primaryIpAddress")["primaryIpAddress"]
    expect(vs.resolve_ids(public_ip) == [guest_id], "by IP address")


@check("VSManager.edit: hostname, domain, notes and tags")
def _():
    guest_id = state["guest_id"]
    expect(vs.edit(guest_id, hostname="interop-vs2", domain="example.org", notes="edited",
                   tags="interop,edited") is True, "edit")
    g = vs.get_instance(guest_id, mask="mask[hostname,domain,notes,tagReferences.tag.name]")
    expect((g["hostname"], g["domain"], g["notes"]) == ("interop-vs2", "example.org", "edited"),
           f"{g}")
    expect(sorted(t["tag"]["name"] for t in g["tagReferences"]) == ["edited", "interop"], "tags")


@check("VSManager.cancel_instance, then the guest is gone")
def _():
    guest_id = state["guest_id"]
    expect(vs.cancel_instance(guest_id) is True, "cancelled")
    expect_fault(lambda: vs.get_instance(guest_id), exceptions.SoftLayerAPIError,
                 "SoftLayer_Exception_ObjectNotFound", str(guest_id))
    expect(vs.list_instances(hostname="interop-vs2") == [], "not listed")


# --- DNS through DNSManager -----------------------------------------------------------------


dns = SoftLayer.DNSManager(client)


@check("DNSManager: zones by name, get_zone, list_zones, create/delete a zone, dump_zone")
def _():
    zone_id = dns.resolve_ids("example.com")[0]
    expect(zone_id == state["zone_id"], "resolved by name")
    zone = dns.get_zone(zone_id)
    expect(zone["name"] == "example.com" and len(zone["resourceRecords"]) >= 5, "zone")
    expect("example.com" in [z["name"] for z in dns.list_zones()], "listed")
    created = dns.create_zone("interop-zone.example")
    expect(dns.resolve_ids("interop-zone.example") == [created["id"]], "new zone")
    dump = dns.dump_zone(zone_id)
    expect("$ORIGIN example.com." in dump and "IN\tSOA" in dump, dump[:200])
    expect(dns.delete_zone(created["id"]) is True, "deleted")
    expect(dns.resolve_ids("interop-zone.example") == [], "gone")


@check("DNSManager: create, read, edit and delete records (A, MX) with get_records filters")
def _():
    zone_id = state["zone_id"]
    a = dns.create_record(zone_id, "interop", "A", "192.0.2.55", ttl=900)
    mx = dns.create_record_mx(zone_id, "@", "mx2.example.com.", priority=20)
    found = dns.get_records(zone_id, host="interop", record_type="A")
    expect([(r["id"], r["data"], r["ttl"]) for r in found] == [(a["id"], "192.0.2.55", 900)],
           f"get_records: {found}")
    expect(set(found[0]) >= {"id", "domainId", "host", "type", "data", "ttl"}, "record fields")
    expect([r["id"] for r in dns.get_records(zone_id, ttl=900, data="192.0.2.55")] == [a["id"]],
           "by ttl and data")
    mxs = dns.get_records(zone_id, record_type="mx")
    expect(any(r["id"] == mx["id"] and r["mxPriority"] == 20 for r in mxs), f"mx: {mxs}")
    record = dns.get_record(a["id"])
    record["data"] = "192.0.2.56"
    dns.edit_record(record)
    expect(dns.get_record(a["id"])["data"] == "192.0.2.56", "edited")
    dns.delete_record(a["id"])
    dns.delete_record(mx["id"])
    expect(dns.get_records(zone_id, host="interop") == [], "deleted")


# --- tickets through TicketManager ----------------------------------------------------------


tickets = SoftLayer.TicketManager(client)


@check("TicketManager: list (all, open, closed), get, subjects")
def _():
    expect(len(tickets.list_tickets()) == 3, "all")
    expect(len(tickets.list_tickets(open_status=True, closed_status=False)) == 2, "open")
    closed = tickets.list_tickets(open_status=False, closed_status=True)
    expect([t["status"]["name"] for t in closed] == ["Closed"], f"closed {closed}")
    expect(all(isinstance(t["updateCount"], int) for t in closed), "update counts")
    ticket = tickets.get_ticket(closed[0]["id"])
    expect([u["entry"][:6] for u in ticket["updates"]] == ["Please", "Done. "], "updates")
    expect(ticket["updates"][0]["editor"]["username"] == USERNAME, "customer editor")
    expect(any(s["name"] == "DNS Request" for s in tickets.list_subjects()), "subjects")


@check("TicketManager: create_ticket and update_ticket")
def _():
    created = tickets.create_ticket(title="Interop ticket", body="Opened by the reference client",
                                    subject=1004, priority=3)
    expect(tickets.update_ticket(created["id"], "A follow-up from the reference client"), "updated")
    ticket = tickets.get_ticket(created["id"])
    expect([u["entry"] for u in ticket["updates"]] ==
           ["Opened by the reference client", "A follow-up from the reference client"],
           f"{ticket['updates']}")
    expect(ticket["updateCount"] == 2 and ticket["priority"] == 3, f"{ticket}")


# --- other managers -------------------------------------------------------------------------


@check("AccountManager.get_summary, HardwareManager list and get, datacenter price groups")
def _():
    summary = SoftLayer.AccountManager(client).get_summary()
    expect(summary["hardwareCount"] == 2 and summary["domainCount"] == 1, f"{summary}")
    hardware = SoftLayer.HardwareManager(client)
    servers = hardware.list_hardware(datacenter="dal10")
    expect([s["hostname"] for s in servers] == ["db01"], f"{servers}")
    db01 = hardware.get_hardware(servers[0]["id"])
    expect(db01["hardwareStatus"]["status"] == "ACTIVE" and db01["datacenter"]["name"] == "dal10",
           "hardware")
    dc = client.call("SoftLayer_Location", "getDatacenters", mask="mask[priceGroups]",
                     filter={"name": {"operation": "tor01"}}, limit=1)
    expect([g["description"] for g in dc[0]["priceGroups"]] == ["Location Group 2"], f"{dc}")


# --- faults ---------------------------------------------------------------------------------


@check("fault classes: MethodNotFound, InvalidMethodParameters, ObjectNotFound, TransportError")
def _():
    missing = expect_fault(lambda: client["Nonexistent_Service"].getObject(),
                           exceptions.MethodNotFound, "-32601", "Service does not exist")
    expect(type(missing) is exceptions.MethodNotFound, type(missing).__name__)
    expect_fault(lambda: client["Account"].launchRocket(), exceptions.MethodNotFound, "-32601")
    expect_fault(lambda: client["Account"].getObject("surplus"),
                 exceptions.InvalidMethodParameters, "-32602")
    err = expect_fault(lambda: client["Ticket"].getObject(id=1), exceptions.SoftLayerAPIError,
                       "SoftLayer_Exception_ObjectNotFound", "Unable to find object with id of '1'")
    expect(repr(err) == "<SoftLayerAPIError(SoftLayer_Exception_ObjectNotFound): "
           "Unable to find object with id of '1'.>", repr(err))
    expect(isinstance(err, exceptions.SoftLayerError), "a SoftLayerError")
    elsewhere = ENDPOINT.replace("/xmlrpc/v3.1", "/nowhere")
    http = SoftLayer.create_client_from_env(username=USERNAME, api_key=API_KEY, timeout=60,
                                            endpoint_url=elsewhere)
    not_found = expect_fault(lambda: http["Account"].getObject(), exceptions.TransportError, 404)
    expect(" :: " in not_found.faultString, not_found.faultString[:120])
    dead = SoftLayer.create_client_from_env(username=USERNAME, api_key=API_KEY, timeout=10,
                                            endpoint_url=DEAD_ENDPOINT)
    expect_fault(lambda: dead["Account"].getObject(), exceptions.TransportError, 0)


passed = results.count(True)
failed = results.count(False)
print(f"{passed} passed, {failed} failed", flush=True)
sys.exit(1 if failed else 0)
