"""spack_recipe.py - runs packaging/spack/package.py against a stand-in for
Spack's package API (no Spack can be installed here, docs/packaging.md) and
prints what the recipe declares, one fact a line, for recipes.sh to check:

  version V
  variant NAME default=D
  depends_on SPEC type=T when=W
  configure_args VARIANTS: ARG ARG ...
  check: ARG ARG ...

Usage: spack_recipe.py PACKAGE.PY. Exit 1 when the recipe does not load or
a directive is called in a way Spack's own directives would refuse."""

import ast
import sys
import types

DECLARED = []


def directive(name, allowed):
    def call(*args, **kwargs):
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError("%s: unknown keyword %s" % (name, sorted(unknown)))
        DECLARED.append((name, args, kwargs))
    return call


class FakeSpec:
    """The spec's answers configure_args asks for: MPI's wrapper, and the
    variants given."""

    def __init__(self, variants):
        self.variants = variants

    def __getitem__(self, name):
        dep = types.SimpleNamespace(mpicc="/spack/%s/bin/mpicc" % name)
        dep.prefix = types.SimpleNamespace(bin="/spack/%s/bin" % name)
        return dep

    def satisfies(self, constraint):
        if constraint.startswith("+"):
            return constraint[1:] in self.variants
        if constraint.startswith("~"):
            return constraint[1:] not in self.variants
        raise ValueError("the stand-in knows +VARIANT and ~VARIANT only: %r" % constraint)


def main(path):
    source = open(path).read()
    ast.parse(source, path)  # a syntax error names its line here
    api = types.ModuleType("spack.package")
    api.AutotoolsPackage = type("AutotoolsPackage", (), {})
    api.version = directive("version", {"sha256", "branch", "tag", "commit", "preferred", "deprecated", "url"})
    api.variant = directive("variant", {"default", "description", "values", "multi", "when"})
    api.depends_on = directive("depends_on", {"type", "when", "patches"})
    api.join_path = lambda *parts: "/".join(parts)
    made = []
    api.make = lambda *args: made.append(args)
    api.__all__ = [n for n in vars(api) if not n.startswith("_")]
    sys.modules["spack"] = types.ModuleType("spack")
    sys.modules["spack.package"] = api
    scope = {}
    exec(compile(source, path, "exec"), scope)
    cls = scope.get("Pfsbench")
    if cls is None:
        sys.exit("%s: no class Pfsbench" % path)
    for name, args, kwargs in DECLARED:
        if name == "version":
            print("version", args[0])
        elif name == "variant":
            print("variant", args[0], "default=%s" % kwargs.get("default"))
        else:
            deptype = kwargs.get("type", ("build", "link"))
            if isinstance(deptype, str):
                deptype = (deptype,)
            print("depends_on", args[0], "type=%s" % ",".join(deptype),
                  "when=%s" % kwargs.get("when", ""))
    variants = [args[0] for name, args, _ in DECLARED if name == "variant"]
    for on in [()] + [(v,) for v in variants]:
        pkg = cls.__new__(cls)
        pkg.spec = FakeSpec(set(on))
        print("configure_args", ",".join(on) or "-", ":", *pkg.configure_args())
    pkg.check()
    for args in made:
        print("check:", *args)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: spack_recipe.py PACKAGE.PY")
    main(sys.argv[1])
