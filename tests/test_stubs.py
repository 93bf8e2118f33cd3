"""The type stubs of the extension (python/maquis/_core.pyi, _core_maquis.pyi, _core_dday.pyi, _core_maurice.pyi)
against the compiled module: every public name, class member and (where PyO3 recorded a text signature) parameter list
must agree both ways. The stubs are parsed with `ast`, so no type checker is needed.

A stub class may derive from a private stub-only base (`_VecEngine` in _core_common.pyi, the
members every game's class shares, declared once): its members count as the class's own, and it
is not a runtime base. A stub may take constants and functions with `from ._core_common import *`
(or `._core_versus`, `._core_network`): those of the sibling's `__all__` count as its own. Each
game's `__all__` and `Env` / `VecEngine` constructors are generated (`python -m maquis.common.stubs`);
a stub that differs from what the generator writes fails here."""

from __future__ import annotations

import ast
import copy
import inspect
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

core = pytest.importorskip("maquis._core")

from maquis.common import stubs  # noqa: E402 - after the skip: it reads the compiled module

STUB_DIR = Path(__file__).resolve().parent.parent / "python" / "maquis"

# (what the module is called in messages, the runtime module, its stub file): the top of the
# extension, then each registered game's submodule `maquis._core.<game>` (reached as an attribute:
# PyO3 submodules) with its stub `_core_<game>.pyi`, so that a new game's stub is checked as soon
# as it is registered.
import maquis  # noqa: E402

MODULES = [
    ("maquis._core", core, STUB_DIR / "_core.pyi"),
    *[(f"maquis._core.{key}", getattr(core, key), STUB_DIR / f"_core_{key}.pyi")
      for key in maquis.GAMES if isinstance(getattr(core, key, None), types.ModuleType)],
]

# The games' submodules: their classes share the members of _core_common.pyi.
GAME_MODULES = MODULES[1:]

# Dunder methods a stub must declare when the class defines them: the copy/pickle, container,
# context and call protocols change what type checkers accept. The rest (__repr__, …) need no stub.
PROTOCOL_DUNDERS = frozenset({
    "__copy__", "__deepcopy__", "__getstate__", "__setstate__", "__reduce__", "__getnewargs__",
    "__len__", "__iter__", "__next__", "__getitem__", "__setitem__", "__contains__",
    "__enter__", "__exit__", "__call__",
})
CONSTRUCTORS = ("__new__", "__init__")
# Not subclassable (a PyO3 class without `subclass`) <=> `@final` in the stub.
Py_TPFLAGS_BASETYPE = 1 << 10
# The outer annotation of a stubbed constant -> the runtime type its value must have.
ANNOTATION_TYPES: dict[str, type] = {
    "int": int, "float": float, "str": str, "bool": bool,
    "tuple": tuple, "list": list, "dict": dict, "Mapping": Mapping,
}
NO_DEFAULT = object()
Param = tuple[str, Any, Any]  # (name, an inspect.Parameter kind, default or NO_DEFAULT)


# ----- the stub, parsed -----------------------------------------------------------------------


@dataclass
class StubMember:
    kind: str  # "method", "staticmethod", "classmethod", "property", "attribute"
    node: ast.AST
    overloaded: bool = False


@dataclass
class StubClass:
    node: ast.ClassDef
    final: bool
    bases: list[str]
    members: dict[str, StubMember] = field(default_factory=dict)


@dataclass
class Stub:
    constants: dict[str, ast.expr] = field(default_factory=dict)  # name -> annotation
    functions: dict[str, StubMember] = field(default_factory=dict)
    classes: dict[str, StubClass] = field(default_factory=dict)
    imports: set[str] = field(default_factory=set)  # names bound by import statements
    imported_from: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (module, name)
    all: list[str] | None = None
    star_from: list[str] = field(default_factory=list)  # sibling stubs imported with `*`
    problems: list[str] = field(default_factory=list)

    def names(self) -> set[str]:
        """The names the stub declares (imports only when re-exported through `__all__`)."""
        declared = set(self.constants) | set(self.functions) | set(self.classes)
        return declared | (self.imports & set(self.all or ()))


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _function_kind(node: ast.FunctionDef) -> tuple[str, bool]:
    names = [_name(d) for d in node.decorator_list]
    overloaded = "overload" in names
    if "staticmethod" in names:
        return "staticmethod", overloaded
    if "classmethod" in names:
        return "classmethod", overloaded
    # `@property`, or `@x.setter` / `@x.deleter` of one.
    if "property" in names or any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter")
                                  for d in node.decorator_list):
        return "property", overloaded
    return "method", overloaded


def _is_docstring_or_ellipsis(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))


def parse_stub(tree: ast.Module) -> Stub:
    stub = Stub()
    for stmt in tree.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            stub.constants[stmt.target.id] = stmt.annotation
        elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
              and stmt.targets[0].id == "__all__"):
            stub.all = list(ast.literal_eval(stmt.value))
        elif isinstance(stmt, ast.FunctionDef):
            _, overloaded = _function_kind(stmt)
            stub.functions[stmt.name] = StubMember("function", stmt, overloaded)
        elif isinstance(stmt, ast.ClassDef):
            stub.classes[stmt.name] = _parse_class(stmt, stub.problems)
        elif isinstance(stmt, ast.ImportFrom) and [a.name for a in stmt.names] == ["*"]:
            if stmt.level != 1 or not stmt.module:
                stub.problems.append(f"line {stmt.lineno}: a star import of anything but a sibling stub")
            else:
                stub.star_from.append(stmt.module)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            stub.imports |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
            if isinstance(stmt, ast.ImportFrom) and stmt.level == 1 and stmt.module:
                stub.imported_from |= {a.asname or a.name: (stmt.module, a.name) for a in stmt.names}
        elif not _is_docstring_or_ellipsis(stmt):
            # An `if sys.version_info …` block or similar: fail rather than silently skip it.
            stub.problems.append(f"line {stmt.lineno}: statement this test does not understand")
    return stub


def _parse_class(node: ast.ClassDef, problems: list[str]) -> StubClass:
    cls = StubClass(node, final="final" in [_name(d) for d in node.decorator_list],
                    bases=[_name(b) for b in node.bases])
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef):
            kind, overloaded = _function_kind(stmt)
            if stmt.name in cls.members and cls.members[stmt.name].kind == "property" and kind == "property":
                continue  # the setter of a property already seen
            cls.members[stmt.name] = StubMember(kind, stmt, overloaded)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            cls.members[stmt.target.id] = StubMember("attribute", stmt)
        elif not _is_docstring_or_ellipsis(stmt):
            problems.append(f"{node.name}, line {stmt.lineno}: statement this test does not understand")
    return cls


# A sibling stub's syntax tree by its module name ("_core_common" -> _core_common.pyi).
StubLoader = Callable[[str], ast.Module]


def _read_sibling(module: str) -> ast.Module:
    return _tree(STUB_DIR / f"{module}.pyi")


def is_stub_only_base(name: str) -> bool:
    """A private base (`_VecEngine`): declared in a stub to share members, absent at runtime."""
    return name.startswith("_")


def merge_stub_bases(stub: Stub, load: StubLoader) -> None:
    """Gives each class the members of its stub-only bases (its own declarations win), from this
    stub or the sibling stub it imports them from; and the stub the constants and functions of the
    siblings it star-imports (those of their `__all__`), as if declared here."""
    for module in stub.star_from:
        sibling = parse_stub(load(module))
        exported = set(sibling.all or ())
        stub.constants = {n: a for n, a in sibling.constants.items() if n in exported} | stub.constants
        stub.functions = {n: f for n, f in sibling.functions.items() if n in exported} | stub.functions
    for cls in stub.classes.values():
        inherited: dict[str, StubMember] = {}
        for base in filter(is_stub_only_base, cls.bases):
            if base in stub.classes:
                source = stub.classes[base]
            elif base in stub.imported_from:
                module, name = stub.imported_from[base]
                sibling = parse_stub(load(module))
                if name not in sibling.classes:
                    stub.problems.append(f"{cls.node.name}: base {base} is not a class of {module}.pyi")
                    continue
                source = sibling.classes[name]
            else:
                stub.problems.append(f"{cls.node.name}: base {base} is neither declared nor imported")
                continue
            inherited |= source.members
        cls.members = inherited | cls.members


# ----- comparisons ------------------------------------------------------------------------------


def _stub_params(args: ast.arguments) -> list[Param]:
    """(name, kind, default) of a stub's parameters; a default is `NO_DEFAULT`, `...` or a literal."""
    P = inspect.Parameter

    def default(node: ast.expr | None) -> Any:
        if node is None:
            return NO_DEFAULT
        try:
            return ast.literal_eval(node)
        except ValueError:
            return ...  # an expression: not compared

    positional = [(a, P.POSITIONAL_ONLY) for a in args.posonlyargs] + [(a, P.POSITIONAL_OR_KEYWORD) for a in args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [(a.arg, kind, default(d)) for (a, kind), d in zip(positional, defaults)]
    if args.vararg:
        out.append((args.vararg.arg, P.VAR_POSITIONAL, NO_DEFAULT))
    out += [(a.arg, P.KEYWORD_ONLY, default(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg:
        out.append((args.kwarg.arg, P.VAR_KEYWORD, NO_DEFAULT))
    return out


def _runtime_params(sig: inspect.Signature) -> list[Param]:
    return [(p.name, p.kind, NO_DEFAULT if p.default is p.empty else p.default) for p in sig.parameters.values()]


def _same_default(a: Any, b: Any) -> bool:
    if a is NO_DEFAULT or b is NO_DEFAULT:
        return a is b
    if a is ... or b is ...:
        return True  # PyO3 shows a non-literal Rust default as `...`; a stub may write `...`
    return bool(a == b) and isinstance(a, bool) == isinstance(b, bool)


def compare_signature(where: str, node: ast.FunctionDef, runtime: inspect.Signature | None,
                      drop_stub: int, drop_runtime: int) -> Iterator[str]:
    """Parameter names, kinds and defaults of a stub function against a runtime signature, after
    dropping the leading `self`/`cls` each has."""
    if runtime is None:
        return
    stub = _stub_params(node.args)[drop_stub:]
    real = _runtime_params(runtime)[drop_runtime:]
    if [p[0] for p in stub] != [p[0] for p in real]:
        stub_names, real_names = ", ".join(p[0] for p in stub), ", ".join(p[0] for p in real)
        yield f"{where}: parameters ({stub_names}) in the stub, ({real_names}) at runtime"
        return
    for (name, kind, default), (_, real_kind, real_default) in zip(stub, real):
        if kind != real_kind:
            yield f"{where}: parameter {name} is {kind.description} in the stub, {real_kind.description} at runtime"
        if not _same_default(default, real_default):
            shown = "none" if default is NO_DEFAULT else repr(default)
            real_shown = "none" if real_default is NO_DEFAULT else repr(real_default)
            yield f"{where}: parameter {name} has default {shown} in the stub, {real_shown} at runtime"


def _signature(obj: Any) -> inspect.Signature | None:
    """The runtime signature PyO3 recorded (`__text_signature__`), or None when there is none."""
    if getattr(obj, "__text_signature__", None) is None:
        return None
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def _constant_type(annotation: ast.expr) -> type | None:
    if isinstance(annotation, ast.Subscript) and _name(annotation.value) == "Final":
        annotation = annotation.slice
    return ANNOTATION_TYPES.get(_name(annotation))


def compare_class(where: str, cls: type, stub: StubClass) -> Iterator[str]:
    subclassable = bool(cls.__flags__ & Py_TPFLAGS_BASETYPE)
    if stub.final == subclassable:
        yield f"{where}: {'@final' if stub.final else 'not @final'} in the stub, but the class is " \
              f"{'' if subclassable else 'not '}subclassable at runtime"
    bases = [b for b in stub.bases if not is_stub_only_base(b)] or ["object"]
    real_bases = [b.__name__ for b in cls.__bases__]
    if bases != real_bases:
        yield f"{where}: bases {bases} in the stub, {real_bases} at runtime"

    own = vars(cls)
    wanted = {n for n in own if not n.startswith("_") or n in PROTOCOL_DUNDERS}
    declared = {n for n in stub.members if n not in CONSTRUCTORS}
    for name in sorted(wanted - declared):
        yield f"{where}.{name}: at runtime, missing from the stub"
    for name in sorted(declared - wanted):
        if not hasattr(cls, name):
            yield f"{where}.{name}: in the stub, missing at runtime"
        elif not name.startswith("_"):
            yield f"{where}.{name}: in the stub, but inherited at runtime rather than defined by the class"

    for name in sorted(declared & wanted):
        member, raw = stub.members[name], inspect.getattr_static(cls, name)
        is_data = inspect.isdatadescriptor(raw)
        if member.kind in ("property", "attribute") and not is_data:
            yield f"{where}.{name}: a {member.kind} in the stub, a {type(raw).__name__} at runtime"
            continue
        if member.kind not in ("property", "attribute") and is_data:
            yield f"{where}.{name}: a {member.kind} in the stub, an attribute at runtime"
            continue
        real_kind = ("staticmethod" if isinstance(raw, staticmethod)
                     else "classmethod" if isinstance(raw, (classmethod, types.ClassMethodDescriptorType))
                     else "method")
        if member.kind in ("method", "staticmethod", "classmethod") and member.kind != real_kind:
            yield f"{where}.{name}: a {member.kind} in the stub, a {real_kind} at runtime"
            continue
        if member.kind in ("method", "staticmethod", "classmethod") and not member.overloaded:
            assert isinstance(member.node, ast.FunctionDef)
            # getattr on the class: a method keeps its `self` (runtime `$self`), a classmethod is
            # bound (no `cls`), a staticmethod has neither; the stub always spells `self`/`cls`.
            drop_stub = 0 if member.kind == "staticmethod" else 1
            drop_runtime = 1 if member.kind == "method" else 0
            yield from compare_signature(f"{where}.{name}", member.node, _signature(getattr(cls, name)),
                                         drop_stub, drop_runtime)

    # The constructor: PyO3 defines `__new__` only for a `#[new]`; its signature is the class's.
    constructors = [stub.members[n] for n in CONSTRUCTORS if n in stub.members]
    if "__new__" not in own:
        if constructors:
            yield f"{where}: a constructor in the stub, none defined by the class at runtime"
    elif not constructors:
        yield f"{where}: constructible at runtime, no __new__ or __init__ in the stub"
    else:
        for member in constructors:
            assert isinstance(member.node, ast.FunctionDef)
            if member.node.name not in own:  # a PyO3 `#[new]` is `__new__`; `__init__` is object's
                yield f"{where}.{member.node.name}: in the stub, but the class defines " \
                      f"{' and '.join(n for n in CONSTRUCTORS if n in own)} at runtime"
                continue
            yield from compare_signature(f"{where}.{member.node.name}", member.node, _signature(cls), 1, 0)


def stub_problems(module: types.ModuleType, tree: ast.Module, modname: str,
                  load: StubLoader = _read_sibling) -> list[str]:
    """Every disagreement between `module` and the stub `tree` (empty when they agree); `load`
    reads the sibling stubs it takes stub-only bases from."""
    stub = parse_stub(tree)
    merge_stub_bases(stub, load)
    problems = list(stub.problems)

    runtime_all = getattr(module, "__all__", None)
    if runtime_all is not None:
        if stub.all is None:
            problems.append(f"{modname}: __all__ at runtime, none in the stub")
        else:
            if len(stub.all) != len(set(stub.all)):
                problems.append(f"{modname}: duplicates in the stub's __all__")
            for name in sorted(set(runtime_all) - set(stub.all)):
                problems.append(f"{modname}.__all__: {name} at runtime, not in the stub's")
            for name in sorted(set(stub.all) - set(runtime_all)):
                problems.append(f"{modname}.__all__: {name} in the stub's, not at runtime")

    public = {n for n in dir(module) if not n.startswith("_")}
    declared = stub.names()
    for name in sorted(public - declared):
        problems.append(f"{modname}.{name}: at runtime, missing from the stub")
    for name in sorted(declared - public):
        if not hasattr(module, name):  # declared dunders (__version__) must exist too
            problems.append(f"{modname}.{name}: in the stub, missing at runtime")

    for name, annotation in stub.constants.items():
        if not hasattr(module, name):
            continue
        value = getattr(module, name)
        expected = _constant_type(annotation)
        if callable(value) or isinstance(value, types.ModuleType):
            problems.append(f"{modname}.{name}: a constant in the stub, a {type(value).__name__} at runtime")
        elif expected is not None and not isinstance(value, expected):
            problems.append(f"{modname}.{name}: {expected.__name__} in the stub, {type(value).__name__} at runtime")
    for name in stub.imports & declared:
        if not isinstance(getattr(module, name, None), types.ModuleType):
            problems.append(f"{modname}.{name}: a module in the stub, not at runtime")
    for name, member in stub.functions.items():
        value = getattr(module, name, None)
        if value is None:
            continue
        if isinstance(value, type) or not callable(value):
            problems.append(f"{modname}.{name}: a function in the stub, a {type(value).__name__} at runtime")
        elif not member.overloaded:
            assert isinstance(member.node, ast.FunctionDef)
            problems += compare_signature(f"{modname}.{name}", member.node, _signature(value), 0, 0)
    for name, stub_cls in stub.classes.items():
        value = getattr(module, name, None)
        if value is None:
            continue
        if not isinstance(value, type):
            problems.append(f"{modname}.{name}: a class in the stub, a {type(value).__name__} at runtime")
        else:
            problems += compare_class(f"{modname}.{name}", value, stub_cls)
    return problems


# ----- the tests --------------------------------------------------------------------------------


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize(("modname", "module", "path"), MODULES, ids=[m[0] for m in MODULES])
def test_stub_matches_module(modname: str, module: types.ModuleType, path: Path) -> None:
    problems = stub_problems(module, _tree(path), modname)
    assert not problems, f"{path.name} disagrees with {modname}:\n  " + "\n  ".join(problems)


def test_every_game_stub_is_generated() -> None:
    # The generator covers every game's module, and each stub is what it writes (its `__all__`
    # and the `Env` / `VecEngine` constructors; `python -m maquis.common.stubs` rewrites them).
    # By name: the tests may read the repository's stubs and the generator the installed package's.
    assert sorted(path.name for _, path in stubs.game_stubs()) == sorted(path.name for _, _, path in GAME_MODULES)
    stale = [path.name for module, path in stubs.game_stubs()
             if stubs.render(path.read_text(encoding="utf-8"), module) != path.read_text(encoding="utf-8")]
    assert not stale, f"{stale} differ from what the generator writes: run python -m maquis.common.stubs"


def test_the_generator_rewrites_a_drifted_constructor() -> None:
    path = STUB_DIR / "_core_dday.pyi"
    text = path.read_text(encoding="utf-8")
    drifted = text.replace('opponent: str = "heuristic", budget', 'opponent: str = "random", budget', 1)
    assert drifted != text and stubs.render(drifted, core.dday) == text


def test_core_stub_reexports_the_dday_stub() -> None:
    # `_core.pyi` stands for the submodule by importing `_core_dday` as `dday` (a stub of an
    # extension cannot have a submodule file); the pairing in MODULES relies on that import.
    imports = [(s.module, a.name, a.asname) for s in _tree(STUB_DIR / "_core.pyi").body
               if isinstance(s, ast.ImportFrom) for a in s.names]
    assert (None, "_core_maquis", "maquis") in imports
    assert (None, "_core_dday", "dday") in imports
    assert (None, "_core_maurice", "maurice") in imports


# Each breaks the real stub one way; the checker must notice, or the test above proves nothing.
def _drop_constant(tree: ast.Module) -> str:
    stmt = next(s for s in tree.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                and not s.target.id.startswith("_"))
    tree.body.remove(stmt)
    return _name(stmt.target)


def _rename_parameter(tree: ast.Module) -> str:
    fn = next(s for s in tree.body if isinstance(s, ast.FunctionDef) and s.args.args)
    fn.args.args[0].arg += "_renamed"
    return fn.name


def _add_method(tree: ast.Module) -> str:
    cls = next(s for s in tree.body if isinstance(s, ast.ClassDef) and s.name[0].isupper() and "Error" not in s.name)
    cls.body.append(ast.parse("def no_such_method(self) -> None: ...").body[0])
    return "no_such_method"


def _drop_property(tree: ast.Module) -> str:
    for cls in (s for s in tree.body if isinstance(s, ast.ClassDef)):
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef) and _function_kind(stmt)[0] == "property":
                cls.body.remove(stmt)
                return stmt.name
    raise AssertionError("no property in the stub")


def _keyword_to_positional(tree: ast.Module) -> str:
    # Any function or method (constructors included) with a keyword-only parameter.
    fn = next(s for s in ast.walk(tree) if isinstance(s, ast.FunctionDef) and s.args.kwonlyargs)
    fn.args.args.append(fn.args.kwonlyargs.pop(0))
    fn.args.defaults.append(fn.args.kw_defaults.pop(0) or ast.Constant(None))
    return fn.name


@pytest.mark.parametrize("mutate", [_drop_constant, _rename_parameter, _add_method, _drop_property,
                                    _keyword_to_positional])
def test_checker_catches_a_broken_stub(mutate: Any) -> None:
    tree = copy.deepcopy(_tree(STUB_DIR / "_core_maquis.pyi"))
    name = mutate(tree)
    problems = stub_problems(core.maquis, tree, "maquis._core.maquis")
    assert any(name in p for p in problems), problems


def _drop_shared_member(tree: ast.Module, cls_name: str, member: str) -> None:
    cls = next(s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == cls_name)
    cls.body = [s for s in cls.body if not (isinstance(s, ast.FunctionDef) and s.name == member)]


def _add_shared_method(tree: ast.Module, cls_name: str) -> None:
    cls = next(s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == cls_name)
    cls.body.append(ast.parse("def no_such_method(self) -> None: ...").body[0])


@pytest.mark.parametrize(("modname", "module", "path"), GAME_MODULES, ids=[m[0] for m in GAME_MODULES])
def test_checker_reads_the_shared_members_into_every_game(modname: str, module: types.ModuleType,
                                                          path: Path) -> None:
    # A member dropped from the shared base is missing from each game's class; one added there
    # is at runtime in none of them. The two-player games' classes also read `_VersusEnv`, `_Game`
    # and `_Agent`.
    imported = parse_stub(_tree(path)).imported_from
    assert "_VecEngine" in imported
    mutations = [(lambda t: _drop_shared_member(t, "_VecEngine", "step_copy"), "step_copy"),
                 (lambda t: _drop_shared_member(t, "_Env", "save_state"), "save_state"),
                 (lambda t: _add_shared_method(t, "_VecEngine"), "no_such_method"),
                 (lambda t: _add_shared_method(t, "_Env"), "no_such_method")]
    if modname in ("maquis._core.dday", "maquis._core.maurice"):
        assert {"_VersusEnv", "_Game", "_Agent"} <= set(imported)
        mutations += [(lambda t: _drop_shared_member(t, "_VersusEnv", "apply_opponent"), "apply_opponent"),
                      (lambda t: _drop_shared_member(t, "_Game", "outcome_for"), "outcome_for"),
                      (lambda t: _drop_shared_member(t, "_Agent", "act_batch"), "act_batch"),
                      (lambda t: _add_shared_method(t, "_Game"), "no_such_method"),
                      (lambda t: _add_shared_method(t, "_Agent"), "no_such_method")]
    for mutate, member in mutations:
        common = copy.deepcopy(_read_sibling("_core_common"))
        mutate(common)
        problems = stub_problems(module, _tree(path), modname,
                                 load=lambda m, common=common: common if m == "_core_common" else _read_sibling(m))
        assert any(member in p for p in problems), problems

