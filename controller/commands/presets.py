"""``courtpiece presets``: every preset, its variants, and every option with its default."""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("presets", help="list the rule presets and their options")
    p.add_argument("name", nargs="?", help="show one preset's full option set")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from controller.rules.options import PRESETS, OptionError, option_help, preset

    if args.name:
        try:
            opts = preset(args.name)
        except OptionError as err:
            print(err)
            return 2
        p = PRESETS[args.name]
        if args.json:
            print(json.dumps({"name": p.name, "summary": p.summary, "options": opts.to_dict(),
                              "variants": {k: sorted(v) for k, v in p.variants.items()}}, indent=2))
            return 0
        print(f"{p.name}: {p.summary}\n")
        for name, help_text, _default in option_help():
            print(f"  {name:32s} {json.dumps(opts.to_dict()[name]):24s} {help_text}")
        for v, changes in p.variants.items():
            print(f"  variant {v}: " + ", ".join(k.replace('_', '-') for k in changes))
        return 0
    if args.json:
        print(json.dumps({n: {"summary": p.summary, "changes": p.options.changed_from_default(),
                              "variants": sorted(p.variants)} for n, p in PRESETS.items()}, indent=2))
        return 0
    print("Presets (options that differ from the defaults):\n")
    for n, p in PRESETS.items():
        print(f"{n}\n  {p.summary}")
        for k, v in p.options.changed_from_default().items():
            print(f"    {k} = {json.dumps(v)}")
        if p.variants:
            print("    variants: " + ", ".join(p.variants))
        print()
    print("Options and their defaults:\n")
    for name, help_text, default in option_help():
        print(f"  {name:32s} {json.dumps(default):24s} {help_text}")
    return 0
