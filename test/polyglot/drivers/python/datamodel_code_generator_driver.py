"""Driver of datamodel-code-generator's output (Pydantic 2 models, no client): argv = fake base URL, driver input."""

import service_api_models as models

from polyglot_checks import model_access, model_checks, read_arguments, run

_, spec = read_arguments()

parse, enum_values = model_access(models, "model_validate")


model_checks(spec, parse, enum_values, checks_types=True)


def project_name() -> tuple[bool, str]:
    fields = sorted(models.Project.model_fields)
    return "path_with_namespace" in fields, f"Project's fields: {fields[:12]}"


run("project-name", project_name)
