"""`sitegen init`: a new site folder from the skeleton shipped in the package (skeleton/).

The skeleton builds at once and explains itself (sitegen.yaml with comments, one model, two
GPUs, a sweep and a matrix run, an FAQ entry, a methodology page, a README, a CI workflow).
A file already there is never overwritten, and nothing is written through a link.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from .. import __version__
from ..records import Problem, SiteError

# Names that packaging tools treat specially are stored without their dot.
DOT = "dot-"
REQUIREMENT = "@SITEGEN_REQUIREMENT@"  # in the CI workflow: the sitegen that wrote the site


@dataclass
class Created:
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # already there: left as they were


def skeleton() -> Traversable:
    return resources.files("sitegen") / "skeleton"


def skeleton_files() -> dict[str, bytes]:
    """Output path (with its dots) -> bytes of every file of the skeleton."""
    out: dict[str, bytes] = {}
    todo: list[tuple[Traversable, str]] = [(skeleton(), "")]
    while todo:
        folder, prefix = todo.pop()
        for entry in folder.iterdir():
            name = "." + entry.name[len(DOT) :] if entry.name.startswith(DOT) else entry.name
            if entry.name == "__pycache__":
                continue
            if entry.is_dir():
                todo.append((entry, f"{prefix}{name}/"))
            else:
                out[prefix + name] = entry.read_bytes()
    data = out[".github/workflows/site.yml"].decode()
    out[".github/workflows/site.yml"] = data.replace(
        REQUIREMENT, f"sitegen=={__version__}"
    ).encode()
    return dict(sorted(out.items()))


def _refuse(target: Path, message: str) -> SiteError:
    return SiteError([Problem(str(target), None, "", message)])


def create_site(target: Path, force: bool = False) -> Created:
    """Write the skeleton into `target`. Raises SiteError for a folder that is not empty
    (unless `force`), a file in its place, or a link on the way."""
    target = Path(target)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise _refuse(target, "is not a folder; give a new or empty folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise _refuse(
            target,
            "is not empty; give a new or empty folder, or --force to add the skeleton's files "
            "that are missing (no file is overwritten)",
        )
    created = Created()
    for rel, data in skeleton_files().items():
        path = target / rel
        if _linked(target, path) or path.exists() or path.is_symlink():
            created.kept.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        try:  # "x": fails rather than replace a file that appeared meanwhile
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            created.kept.append(rel)
            continue
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        created.written.append(rel)
    return created


def _linked(root: Path, path: Path) -> bool:
    """Whether a folder between `root` and `path` is a link (writing would leave `root`)."""
    current = root
    for part in path.relative_to(root).parts[:-1]:
        current = current / part
        if current.is_symlink():
            return True
    return False
