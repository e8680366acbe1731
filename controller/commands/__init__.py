"""Sub-commands of ``courtpiece``: one module each, with ``register(subparsers)``.

``register`` adds a parser and sets ``handler=`` to a function taking the parsed
arguments and returning an exit code. Heavy imports belong inside the handler so that
``courtpiece --help`` stays quick on a Pi.
"""
