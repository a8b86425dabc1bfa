"""Claims loongarch64, which the example plugin already owns."""

from typing import Any

from tcfg.plugin import CpuParser, hookimpl


class Clash(CpuParser):
    name = "shadow"
    arches = ("loongarch64",)

    def claims_cpu(self, mcpu: str) -> bool:
        return False

    def cpu_names(self) -> list[str]:
        return []

    def parse(self, request: Any, arch: Any) -> Any:
        raise AssertionError("never chosen")


@hookimpl
def tcfg_register_cpu_parsers(register: Any) -> None:
    register(Clash())
