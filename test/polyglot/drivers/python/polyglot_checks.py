"""The fidelity checks every Python driver runs, given how its generated code parses a model.

Each check prints one line, `POLYGLOT {"check": ..., "ok": ..., "detail": ...}`, which the tier reads
(support/drivers.ts). A check that raises is reported as failed with its traceback.
"""

import copy
import json
import re
import sys
import traceback
from typing import Any, Callable

BIG_ID = 9007199254740993  # 2**53 + 1: a 64-bit id no double holds exactly


def report(check: str, ok: bool, detail: str = "") -> None:
    print("POLYGLOT " + json.dumps({"check": check, "ok": ok, "detail": detail[:4000]}), flush=True)


def run(check: str, body: Callable[[], tuple[bool, str]]) -> None:
    try:
        ok, detail = body()
    except Exception:  # noqa: BLE001 - any failure of the generated code is the check's finding
        ok, detail = False, traceback.format_exc(limit=6)
    report(check, ok, detail)


def class_name(component: str) -> str:
    """`InvitationCreateResult_Invitations` -> `InvitationCreateResultInvitations`, as the generators name classes."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", component) if part)


def model_access(models: Any, parse_method: str) -> tuple[Callable[[str, Any], Any], Callable[[str], list[Any]]]:
    """How a driver reads its generated models: `parse(component, value)` with the class's `parse_method`
    (`from_dict`, `model_validate`), and `enum_values(component)`."""

    def parse(model: str, value: Any) -> Any:
        return getattr(getattr(models, class_name(model)), parse_method)(value)

    def enum_values(name: str) -> list[Any]:
        return [member.value for member in getattr(models, name)]

    return parse, enum_values


def refuses(parse: Callable[[str, Any], Any], model: str, value: Any) -> bool:
    try:
        parse(model, value)
    except Exception:  # noqa: BLE001 - any refusal counts
        return True
    return False


def model_checks(
    spec: dict[str, Any],
    parse: Callable[[str, Any], Any],
    enum_values: Callable[[str], list[Any]],
    checks_types: bool,
    parse_example: Callable[[dict[str, Any]], Any] | None = None,
) -> None:
    """required, int64, nullable, enums, examples. `checks_types`: the models refuse a value of the wrong type.
    `parse_example(example)`: how the generated code reads one documented example, when not by its component's class."""
    samples = spec["samples"]

    def parse_documented(example: dict[str, Any]) -> None:
        if parse_example is not None:
            parse_example(example)
            return
        for value in example["value"] if example["array"] else [example["value"]]:
            parse(example["model"], value)

    def required() -> tuple[bool, str]:
        accepted = []
        for model, fields in spec["required"].items():
            parse(model, copy.deepcopy(samples[model]))
            for field in fields:
                value = copy.deepcopy(samples[model])
                value.pop(field, None)
                if not refuses(parse, model, value):
                    accepted.append(f"{model} without {field}")
        return not accepted, "accepted: " + ", ".join(accepted)

    def int64() -> tuple[bool, str]:
        value = copy.deepcopy(samples["Job"])
        value["id"] = BIG_ID
        parsed = parse("Job", value).id
        return parsed == BIG_ID, f"Job.id {BIG_ID} parsed as {parsed!r}"

    def nullable() -> tuple[bool, str]:
        problems = []
        # Every field the document makes nullable (support/examples.ts), one at a time so a refusal names it.
        for model, fields in spec["nullable"].items():
            for field in fields:
                value = copy.deepcopy(samples[model])
                value[field] = None
                if refuses(parse, model, value):
                    problems.append(f"{model}.{field}: null refused")
        if checks_types:
            named = copy.deepcopy(samples["Job"])
            named["name"] = None
            if not refuses(parse, "Job", named):
                problems.append("Job.name: null accepted")
        checked = ", ".join(f"{model}: {len(fields)}" for model, fields in spec["nullable"].items())
        return not problems, "; ".join(problems) or (
            f"null accepted in each nullable field ({checked})"
            + ("; null refused where non-null" if checks_types else " (no run-time type checks)")
        )

    def enums() -> tuple[bool, str]:
        wrong = []
        for name, values in spec["enums"].items():
            got = enum_values(name)
            if sorted(map(str, got)) != sorted(map(str, values)):
                wrong.append(f"{name}: {got} instead of {values}")
        return not wrong, "; ".join(wrong)

    def examples() -> tuple[bool, str]:
        refused, operations = [], set()
        for example in spec["examples"]:
            try:
                parse_documented(example)
                operations.add(example["operationId"])
            except Exception as error:  # noqa: BLE001
                refused.append(
                    f"{example['operationId']} {example['status']} {example['name']} ({example['model']}): {str(error)[:300]}"
                )
        detail = f"{len(operations)} operations' examples parse; refused {len(refused)}:\n" + "\n".join(refused[:25])
        return not refused and len(operations) >= 30, detail

    run("required", required)
    run("int64", int64)
    run("nullable", nullable)
    run("enums", enums)
    run("examples", examples)


def read_arguments() -> tuple[str, dict[str, Any]]:
    """argv: the fake's base URL, the driver input (support/examples.ts driverInput)."""
    with open(sys.argv[2], encoding="utf-8") as file:
        return sys.argv[1], json.load(file)


PROJECT = "my-group/my-project"
NEW_MERGE_REQUEST = {"source_branch": "feature/polyglot", "target_branch": "main", "title": "Polyglot check"}
# The default data set already has an open merge request from feature/login to main: a second one is a 409.
TAKEN_MERGE_REQUEST = {"source_branch": "feature/login", "target_branch": "main", "title": "Again"}


def call_sequence(
    list_jobs: Callable[[], tuple[bool, str]],
    create: Callable[[dict[str, Any]], int],
    pages: Callable[[int], list[int]],
    merge: Callable[[int], str],
    conflict: Callable[[dict[str, Any]], tuple[bool, str]],
) -> None:
    """The call sequence against the fake. `create` returns the new iid; `pages(n)` the iids of page n (2 a page);
    `merge` the state after merging; `conflict` whether a 409 arrived as the language's error type."""
    run("jobs-path-encoded", list_jobs)
    created: list[int] = []

    def create_check() -> tuple[bool, str]:
        created.append(create(dict(NEW_MERGE_REQUEST)))
        return True, f"iid {created[0]}"

    run("create-merge-request", create_check)

    def page_check() -> tuple[bool, str]:
        if not created:
            return False, "no merge request was created"
        seen: list[int] = []
        for number in range(1, 50):
            iids = pages(number)
            if not iids:
                break
            seen.extend(iids)
        return created[0] in seen and len(seen) > 2, f"iids seen over the pages: {seen}"

    run("page-merge-requests", page_check)
    run(
        "merge",
        lambda: (
            (False, "no merge request was created")
            if not created
            else ((state := merge(created[0])) == "merged", f"state after merge: {state}")
        ),
    )
    run("conflict-error", lambda: conflict(dict(TAKEN_MERGE_REQUEST)))
