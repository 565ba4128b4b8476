#!/usr/bin/env python3
"""skyisles' port.json for PortMaster: written in PortMaster's current format (version 4) and
checked the way PortMaster's own loader reads one (its tools keep only the keys below, so a key
outside them is a mistake of ours, not extra information).

usage: port_json.py write FILE --glibc X.Y      writes skyisles' port.json
       port_json.py check FILE [--glibc X.Y]    one line per defect, exit 1 when there is one
"""
import json
import sys

# Version 4's keys: the root and its "attr" (PortMaster-New's tools/libs, port_info_load).
ROOT_KEYS = ("version", "name", "items", "items_opt", "attr")
ATTR_KEYS = ("title", "porter", "desc", "desc_md", "inst", "inst_md", "genres", "image", "rtr",
             "exp", "runtime", "store", "availability", "reqs", "arch", "min_glibc")
GENRES = ("action", "adventure", "arcade", "casino/card", "fps", "platformer", "puzzle", "racing",
          "rhythm", "rpg", "simulation", "sports", "strategy", "visual novel", "other")
# "full": the whole game is in the zip (nothing to buy or copy); the others name what a player
# must bring.
AVAILABILITY = ("full", "demo", "free", "paid")
TYPES = {"title": str, "porter": list, "desc": str, "inst": str, "genres": list, "rtr": bool,
         "exp": bool, "runtime": list, "store": list, "availability": str, "reqs": list,
         "arch": list, "min_glibc": str}


def skyisles_info(glibc):
    return {
        "version": 4,
        "name": "skyisles.zip",
        "items": ["SkyIsles.sh", "skyisles"],
        "items_opt": [],
        "attr": {
            "title": "SkyIsles",
            "porter": ["skyisles"],
            "desc": "An infinite floating-islands flight simulator: fly over floating continents, "
                    "overhangs, caves and wind-blown voxel clouds above a dark abyss, with a lo-fi "
                    "PSX look.",
            "desc_md": None,
            "inst": "Ready to run.",
            "inst_md": None,
            "genres": ["simulation"],
            "image": None,
            "rtr": True,
            "exp": False,
            "runtime": [],
            "store": [],
            "availability": "full",
            # 1 GB of memory (a 192 MiB budget plus the GPU driver's own). No analog_1: the d-pad
            # alone flies it (docs/handheld.md, stickless devices).
            "reqs": ["1gb"],
            "arch": ["aarch64"],
            "min_glibc": glibc,
        },
    }


def defects(info, glibc=None):
    """What PortMaster's version 4 loader would drop, reject or read differently."""
    out = []
    if not isinstance(info, dict):
        return ["port.json is not a JSON object"]
    if info.get("version") != 4:
        out.append(f"version is {info.get('version')!r}, want 4 (PortMaster's current format)")
    out += [f"root key {k!r} is not in PortMaster's format" for k in info if k not in ROOT_KEYS]
    attr = info.get("attr")
    if not isinstance(attr, dict):
        return out + ["attr is missing or not an object"]
    out += [f"attr key {k!r} is not in PortMaster's format" for k in attr if k not in ATTR_KEYS]
    out += [f"attr.{k} is missing" for k in ATTR_KEYS if k not in attr]
    out += [f"attr.{k} is {type(attr[k]).__name__}, want {t.__name__}"
            for k, t in TYPES.items() if k in attr and not isinstance(attr[k], t)]
    for item in (info.get("items") or []) + (info.get("items_opt") or []):
        if item.startswith("/") or item.startswith("../") or "/../" in item or item == "":
            out.append(f"item {item!r} is not a path inside the ports folder")
    if not info.get("items"):
        out.append("items is empty: PortMaster would install nothing")
    if not str(info.get("name", "")).endswith(".zip"):
        out.append(f"name {info.get('name')!r} is not the zip's file name")
    out += [f"genre {g!r} is not one of PortMaster's" for g in attr.get("genres") or [] if g not in GENRES]
    if attr.get("availability") not in AVAILABILITY:
        out.append(f"availability {attr.get('availability')!r} is not one of {', '.join(AVAILABILITY)}")
    if glibc is not None and attr.get("min_glibc") != glibc:
        out.append(f"min_glibc is {attr.get('min_glibc')!r}, the binary's floor is {glibc}")
    return out


def main(argv):
    if len(argv) < 3 or argv[1] not in ("write", "check"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    path = argv[2]
    glibc = argv[argv.index("--glibc") + 1] if "--glibc" in argv else None
    if argv[1] == "write":
        if not glibc:
            print("port_json.py: write needs --glibc X.Y (tools/delivery/glibc_floor.sh prints it)", file=sys.stderr)
            return 2
        with open(path, "w") as f:
            json.dump(skyisles_info(glibc), f, indent=4)
            f.write("\n")
        return 0
    try:
        with open(path) as f:
            info = json.load(f)
    except (OSError, ValueError) as err:
        print(f"port.json: {path} does not load: {err}")
        return 1
    found = defects(info, glibc)
    for line in found:
        print(f"port.json: {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
