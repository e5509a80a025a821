"""N web guests from stack config (python-web-tier:count, :cpus), with the account's name."""
import pulumi
import pulumi_svc as svc

config = pulumi.Config()
count = config.get_int("count") or 2
cpus = config.get_int("cpus") or 1

guests = [
    svc.VirtualGuest(
        f"web-{i}",
        domain=config.get("domain") or "python.example.com",
        datacenter="dal10",
        start_cpus=cpus,
        max_memory=1024,
        operating_system_reference_code="UBUNTU_LATEST",
        tags=["web-tier"],
    )
    for i in range(count)
]

pulumi.export("company", svc.get_account().company_name)
pulumi.export("addresses", [guest.primary_ip_address for guest in guests])
