"""Child process of test_kernel_snapshot.py: boot one kernel version on one machine,
load every module and print, as JSON, what the registry holds and what the
modules offered it.

Run as ``python snapshot_child.py VERSION``, the machine chosen by
CRYPTO_API_ARCH.  The registry's version rule is wrapped to record every
driver name the modules offer (the set this CPU can register), so the parent
can compute the table's expectation for exactly this machine and CPU.
"""

import json
import sys

import crypto_api as capi
from crypto_api import registry, template


def main(version: str) -> None:
    offered = []
    rule = registry.version_rule()

    def driver(desc):
        offered.append(desc.cra_driver_name or desc.cra_name + "-generic")
        return rule.driver(desc)

    registry.set_version_rule(registry.VersionRule(driver=driver, template=rule.template))
    capi.boot(kernel=version)
    errors = {n: str(e) for n, e in capi.load_all().items() if e is not None}
    registered = [[a.cra_driver_name, a.cra_name, a.cra_priority, a.cra_module]
                  for a in registry.snapshot()
                  if not a.is_larval and a.instance is None]
    json.dump({"offered": offered, "registered": registered, "errors": errors,
               "templates": template.registered_templates(),
               "arch": capi.machine.current_machine().arch}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
