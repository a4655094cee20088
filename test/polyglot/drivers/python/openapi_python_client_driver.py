"""Driver of openapi-python-client's output: argv = fake base URL, driver input, generated package name."""

import importlib
import sys
from typing import Any

import httpx

from polyglot_checks import PROJECT, call_sequence, class_name, model_access, model_checks, read_arguments

base_url, spec = read_arguments()
package = sys.argv[3]
models = importlib.import_module(f"{package}.models")
client_module = importlib.import_module(f"{package}.client")


def operation(operation_id: str) -> Any:
    folder, name = operation_id.split("/")
    module = (folder + name).replace("-", "_")
    return importlib.import_module(f"{package}.api.{folder.replace('-', '_')}.{module}")


parse, enum_values = model_access(models, "from_dict")

client = client_module.AuthenticatedClient(
    base_url=base_url,
    token="maintainer-token",
    prefix="",
    auth_header_name="PRIVATE-TOKEN",
    raise_on_unexpected_status=True,
)


def parse_example(example: dict[str, Any]) -> None:
    """By the component's class; a component with no class of its own (a union is a type alias, `allOf` of one
    `$ref` is that component's class) as the operation's own response parser reads it."""
    values = example["value"] if example["array"] else [example["value"]]
    if hasattr(models, class_name(example["model"])):
        for value in values:
            parse(example["model"], value)
        return
    response = httpx.Response(int(example["status"]), json=example["value"])
    parsed = operation(example["operationId"])._parse_response(client=client, response=response)
    items = parsed if example["array"] and isinstance(parsed, list) else [parsed]
    found = [type(item).__module__ + "." + type(item).__name__ for item in items]
    if parsed is None or not all(name.startswith(f"{package}.models.") for name in found):
        raise AssertionError(f"the operation's parser gave {found}")


# attrs models check no types at run time (mypy --strict does, statically).
model_checks(spec, parse, enum_values, checks_types=False, parse_example=parse_example)


def list_jobs() -> tuple[bool, str]:
    response = operation("jobs/list-project-jobs").sync_detailed(PROJECT, client=client)
    jobs = response.parsed
    return response.status_code == 200 and isinstance(jobs, list) and len(
        jobs
    ) > 0, f"{response.status_code}: {str(jobs)[:300]}"


def create(body: dict[str, Any]) -> int:
    request = models.CreateMergeRequestRequest.from_dict(body)
    response = operation("merge-requests/create-merge-request").sync_detailed(PROJECT, client=client, body=request)
    if response.status_code != 201:
        raise AssertionError(f"{response.status_code}: {response.content[:300]!r}")
    return int(response.parsed.iid)


def pages(number: int) -> list[int]:
    response = operation("merge-requests/list-project-merge-requests").sync_detailed(
        PROJECT, client=client, page=number, per_page=2
    )
    if response.status_code != 200:
        raise AssertionError(f"{response.status_code}: {response.content[:300]!r}")
    return [int(mr.iid) for mr in response.parsed]


def merge(iid: int) -> str:
    response = operation("merge-requests/merge").sync_detailed(PROJECT, iid, client=client)
    if response.status_code != 200:
        raise AssertionError(f"{response.status_code}: {response.content[:300]!r}")
    return str(response.parsed.state.value)


def conflict(body: dict[str, Any]) -> tuple[bool, str]:
    request = models.CreateMergeRequestRequest.from_dict(body)
    response = operation("merge-requests/create-merge-request").sync_detailed(PROJECT, client=client, body=request)
    error = type(response.parsed).__name__
    return response.status_code == 409 and error == "ErrorBody", f"{response.status_code}, parsed as {error}"


call_sequence(list_jobs, create, pages, merge, conflict)
