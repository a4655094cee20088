"""Driver of openapi-generator's `python` output (package openapi_client): argv = fake base URL, driver input."""

from typing import Any

import openapi_client
from openapi_client import models

from polyglot_checks import PROJECT, call_sequence, model_access, model_checks, read_arguments

base_url, spec = read_arguments()

parse, enum_values = model_access(models, "from_dict")


model_checks(spec, parse, enum_values, checks_types=True)

configuration = openapi_client.Configuration(host=base_url)
configuration.api_key["privateTokenHeader"] = "maintainer-token"
client = openapi_client.ApiClient(configuration)
jobs_api = openapi_client.JobsApi(client)
merge_requests = openapi_client.MergeRequestsApi(client)


def list_jobs() -> tuple[bool, str]:
    jobs = jobs_api.jobs_list_project_jobs(PROJECT)
    return len(jobs) > 0 and isinstance(jobs[0], models.Job), f"{len(jobs)} jobs"


def create(body: dict[str, Any]) -> int:
    request = models.CreateMergeRequestRequest.from_dict(body)
    return int(merge_requests.merge_requests_create_merge_request(PROJECT, request).iid)


def pages(number: int) -> list[int]:
    return [
        int(mr.to_dict()["iid"])  # through its JSON form: a list item may be an anyOf wrapper
        for mr in merge_requests.merge_requests_list_project_merge_requests(PROJECT, page=number, per_page=2)
    ]


def merge(iid: int) -> str:
    return str(merge_requests.merge_requests_merge(PROJECT, iid).to_dict()["state"])


def conflict(body: dict[str, Any]) -> tuple[bool, str]:
    try:
        create(body)
    except openapi_client.ApiException as error:
        return error.status == 409, f"ApiException {error.status}"
    return False, "no error"


call_sequence(list_jobs, create, pages, merge, conflict)
