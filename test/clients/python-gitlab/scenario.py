"""One call of python-gitlab (Debian's python3-gitlab) per operation of the contract, as a team would write it: the
object API where python-gitlab 3.12 has one, its generic request methods (`gl.http_*`) elsewhere; in order: create,
then read, update and delete.

    scenario.py --list                 the operationIds, one JSON array
    scenario.py '<JSON settings>'      runs every call; one JSON line per call

Settings: {"url": origin, "token": default token, "tokens": {operationId: token}, "jobToken": a job token,
"ids": {...}} (the ids are the records the calls name, as in test/clients/gitbeaker-calls.ts, plus `ldapCn`, an LDAP group link deleted by its cn,
`newBranch`, the branch the file calls create and the merge request starts from, and `runnerManager`, the system id
of a manager of `runner`). Each line: the operationId the call is meant to
reach, the python-gitlab method, ok or the exception class and message, and the requests the call sent.
"""
import gzip
import io
import json
import sys
import warnings

import gitlab
from gitlab.utils import EncodedId
from gitlab.v4.objects import GroupBillableMember

# list() without get_all warns that it returns one page: one page is what the calls mean.
warnings.simplefilter("ignore")


def export_download(p):
    """Polls the export status until finished (at most ten times), as a team does before downloading."""
    for _ in range(10):
        export = p.exports.get()
        if export.export_status == "finished":
            break
    return export.download()


def export_file():
    """An export file: a gzipped empty tar archive."""
    return io.BytesIO(gzip.compress(bytes(1024)))


CALLS = [
    ("jobs/list-project-jobs", "project.jobs.list", lambda c: c.p().jobs.list(scope="failed")),
    ("jobs/list-pipeline-jobs", "project.pipelines.get().jobs.list", lambda c: c.p().pipelines.get(c.i["pipeline"], lazy=True).jobs.list()),
    ("jobs/list-pipeline-bridges", "project.pipelines.get().bridges.list", lambda c: c.p().pipelines.get(c.i["bridgePipeline"], lazy=True).bridges.list()),
    ("jobs/get-project-job", "project.jobs.get", lambda c: c.p().jobs.get(c.i["job"])),
    ("project-import-export/export-project", "project.exports.create", lambda c: c.p().exports.create()),
    ("project-import-export/get-export-status", "project.exports.get", lambda c: c.p().exports.get()),
    ("project-import-export/download-export", "project.exports.get().download", lambda c: export_download(c.p())),
    ("project-import-export/import-project", "projects.import_project", lambda c: c.gl.projects.import_project(export_file(), "imported", namespace=c.i["namespacePath"])),
    ("project-import-export/import-project-from-url", "projects.remote_import", lambda c: c.gl.projects.remote_import("https://service.example/export.tar.gz", "imported-from-url", namespace=c.i["namespacePath"])),
    ("project-import-export/import-project-from-s3", "projects.remote_import_s3", lambda c: c.gl.projects.remote_import_s3("imported-from-s3", "us-east-1", "exports", "export.tar.gz", "AKIAEXAMPLE", "secret", namespace=c.i["namespacePath"])),
    ("project-import-export/get-import-status", "project.imports.get", lambda c: c.p().imports.get()),
    ("repository/get-file", "project.files.get", lambda c: c.p().files.get(c.i["file"], ref="main")),
    ("repository/create-file", "project.files.create", lambda c: c.p().files.create({"file_path": "app/new.rb", "branch": c.i["newBranch"], "start_branch": "main", "content": "puts 1", "commit_message": "Add file"})),
    ("repository/update-file", "project.files.update", lambda c: c.p().files.update("app/new.rb", {"branch": c.i["newBranch"], "content": "puts 2", "commit_message": "Update file"})),
    ("repository/delete-file", "project.files.delete", lambda c: c.p().files.delete("app/new.rb", c.i["newBranch"], "Remove file")),
    ("repository/get-file-blame", "project.files.blame", lambda c: c.p().files.blame(c.i["file"], "main")),
    ("repository/get-raw-file", "project.files.raw", lambda c: c.p().files.raw(c.i["file"], "main")),
    ("repository/list-tree", "project.repository_tree", lambda c: c.p().repository_tree(recursive=True)),
    ("repository/get-blob", "project.repository_blob", lambda c: c.p().repository_blob(c.i["blob"])),
    ("repository/get-raw-blob", "project.repository_raw_blob", lambda c: c.p().repository_raw_blob(c.i["blob"])),
    ("repository/download-archive", "project.repository_archive", lambda c: c.p().repository_archive()),
    ("repository/download-archive-in-format", "project.repository_archive(format)", lambda c: c.p().repository_archive(format="zip")),
    ("repository/compare", "project.repository_compare", lambda c: c.p().repository_compare("main", c.i["branch"])),
    ("repository/list-contributors", "project.repository_contributors", lambda c: c.p().repository_contributors()),
    ("repository/get-merge-base", "project.repository_merge_base", lambda c: c.p().repository_merge_base(["main", c.i["branch"]])),
    ("users/list-users", "users.list", lambda c: c.gl.users.list(active=True)),
    ("users/create-user", "users.create", lambda c: c.gl.users.create({"email": "jdoe@example.com", "name": "J Doe", "username": "jdoe", "password": "secret-password"})),
    ("users/get-user", "users.get", lambda c: c.gl.users.get(c.i["user"])),
    ("users/get-impersonation-token", "user.impersonationtokens.get", lambda c: c.u().impersonationtokens.get(c.i["impersonationToken"])),
    ("users/revoke-impersonation-token", "user.impersonationtokens.delete", lambda c: c.u().impersonationtokens.delete(c.i["impersonationToken"])),
    ("users/create-impersonation-token", "user.impersonationtokens.create", lambda c: c.u().impersonationtokens.create({"name": "token", "scopes": ["api"], "expires_at": "2026-12-31"})),
    ("users/create-user-personal-access-token", "user.personal_access_tokens.create", lambda c: c.u().personal_access_tokens.create({"name": "token", "scopes": ["api"]})),
    ("users/list-activities", "user_activities.list", lambda c: c.gl.user_activities.list()),
    ("users/list-memberships", "user.memberships.list", lambda c: c.u().memberships.list()),
    ("groups/list-groups", "groups.list", lambda c: c.gl.groups.list(all_available=True)),
    ("groups/list-subgroups", "group.subgroups.list", lambda c: c.g().subgroups.list()),
    ("groups/list-descendant-groups", "group.descendant_groups.list", lambda c: c.g().descendant_groups.list()),
    ("groups/list-projects", "group.projects.list", lambda c: c.g().projects.list()),
    ("groups/update-hook", "group.hooks.update", lambda c: c.g().hooks.update(c.i["hook"], {"url": "https://hooks.example/h"})),
    ("groups/delete-hook", "group.hooks.delete", lambda c: c.g().hooks.delete(c.i["hook"])),
    ("groups/sync-ldap", "group.ldap_sync", lambda c: c.g().ldap_sync()),
    ("groups/create-ldap-group-link", "group.ldap_group_links.create", lambda c: c.g().ldap_group_links.create({"provider": "ldapmain", "group_access": 40, "cn": "maintainers"})),
    ("groups/list-ldap-group-links", "group.ldap_group_links.list", lambda c: c.g().ldap_group_links.list()),
    ("groups/delete-ldap-group-link", "group.ldap_group_links.delete(query)", lambda c: c.g().ldap_group_links.delete(None, query_data={"provider": "ldapmain", "cn": "maintainers"})),
    ("groups/delete-ldap-group-link-by-provider", "group.delete_ldap_group_link(cn, provider)", lambda c: c.g().delete_ldap_group_link("developers", provider="ldapmain")),
    ("groups/delete-ldap-group-link-by-cn", "group.delete_ldap_group_link(cn)", lambda c: c.g().delete_ldap_group_link(c.i["ldapCn"])),
    ("groups/create-saml-group-link", "group.saml_group_links.create", lambda c: c.g().saml_group_links.create({"saml_group_name": "saml-developers", "access_level": 30})),
    ("groups/list-saml-group-links", "group.saml_group_links.list", lambda c: c.g().saml_group_links.list()),
    ("groups/get-saml-group-link", "group.saml_group_links.get", lambda c: c.g().saml_group_links.get("saml-developers")),
    ("groups/delete-saml-group-link", "group.saml_group_links.delete", lambda c: c.g().saml_group_links.delete("saml-developers")),
    ("groups/share", "group.share", lambda c: c.g("sharingGroup").share(c.i["sharedGroup"], 30)),
    ("groups/unshare", "group.unshare", lambda c: c.g("sharingGroup").unshare(c.i["sharedGroup"])),
    ("groups/create-push-rule", "group.pushrules.create", lambda c: c.g().pushrules.create({"member_check": True})),
    ("groups/get-push-rule", "group.pushrules.get", lambda c: c.g().pushrules.get()),
    ("groups/update-push-rule", "group.pushrules.update", lambda c: c.g().pushrules.update(new_data={"member_check": False})),
    ("badges/list-group-badges", "group.badges.list", lambda c: c.g().badges.list()),
    ("badges/create-group-badge", "group.badges.create", lambda c: c.g().badges.create({"link_url": "https://service.example/%{project_path}", "image_url": "https://service.example/badge.svg"})),
    ("badges/get-group-badge", "group.badges.get", lambda c: c.g().badges.get(c.i["badge"])),
    ("badges/update-group-badge", "group.badges.update", lambda c: c.g().badges.update(c.i["badge"], {"name": "coverage"})),
    ("badges/delete-group-badge", "group.badges.delete", lambda c: c.g().badges.delete(c.i["badge"])),
    ("badges/render-group-badge", "group.badges.render", lambda c: c.g().badges.render("https://service.example/%{project_path}", "https://service.example/badge.svg")),
    ("members/list-group-members", "group.members.list", lambda c: c.g().members.list()),
    ("members/list-project-members", "project.members.list", lambda c: c.p().members.list()),
    ("members/list-all-group-members", "group.members_all.list", lambda c: c.g().members_all.list()),
    ("members/list-all-project-members", "project.members_all.list", lambda c: c.p().members_all.list()),
    ("members/get-group-member", "group.members.get", lambda c: c.g().members.get(c.i["groupMember"])),
    ("members/get-project-member", "project.members.get", lambda c: c.p().members.get(c.i["projectMember"])),
    ("members/get-inherited-group-member", "group.members_all.get", lambda c: c.g().members_all.get(c.i["groupMember"])),
    ("members/get-inherited-project-member", "project.members_all.get", lambda c: c.p().members_all.get(c.i["groupMember"])),
    ("members/list-billable-members", "group.billable_members.list", lambda c: c.g().billable_members.list()),
    ("members/list-billable-member-memberships", "GroupBillableMember.memberships.list", lambda c: GroupBillableMember(c.g().billable_members, {"id": c.i["groupMember"]}, lazy=True).memberships.list()),
    ("invitations/create-group-invitation", "group.invitations.create", lambda c: c.g().invitations.create({"email": "new@example.com", "access_level": 30})),
    ("invitations/list-group-invitations", "group.invitations.list", lambda c: c.g().invitations.list()),
    ("invitations/create-project-invitation", "project.invitations.create", lambda c: c.p().invitations.create({"email": "new@example.com", "access_level": 30})),
    ("invitations/list-project-invitations", "project.invitations.list", lambda c: c.p().invitations.list()),
    ("invitations/update-group-invitation", "group.invitations.update", lambda c: c.g().invitations.update("new@example.com", {"access_level": 40})),
    ("invitations/delete-group-invitation", "group.invitations.delete", lambda c: c.g().invitations.delete("new@example.com")),
    ("invitations/update-project-invitation", "project.invitations.update", lambda c: c.p().invitations.update("new@example.com", {"access_level": 40})),
    ("invitations/delete-project-invitation", "project.invitations.delete", lambda c: c.p().invitations.delete("new@example.com")),
    ("runners/list-runners", "runners.list", lambda c: c.gl.runners.list()),
    ("runners/list-all-runners", "runners_all.list", lambda c: c.gl.runners_all.list()),
    ("runners/get-runner", "runners.get", lambda c: c.gl.runners.get(c.i["runner"])),
    ("runners/update-runner", "runners.update", lambda c: c.gl.runners.update(c.i["runner"], {"description": "runner"})),
    ("runners/list-runner-jobs", "runner.jobs.list", lambda c: c.gl.runners.get(c.i["runner"], lazy=True).jobs.list()),
    ("runners/list-project-runners", "project.runners.list", lambda c: c.p().runners.list()),
    ("runners/list-group-runners", "group.runners.list", lambda c: c.g().runners.list()),
    ("integrations/list-integrations", "project.integrations.list", lambda c: c.p().integrations.list()),
    ("integrations/set-up-integration", "project.integrations.update", lambda c: c.p().integrations.update(c.i["integration"], {"webhook": "https://hooks.example/s", "username": "bot"})),
    ("integrations/get-integration", "project.integrations.get", lambda c: c.p().integrations.get(c.i["integration"])),
    ("integrations/disable-integration", "project.integrations.delete", lambda c: c.p().integrations.delete(c.i["integration"])),
    ("integrations/set-up-custom-issue-tracker", "project.integrations.update", lambda c: c.p().integrations.update("custom-issue-tracker", {"new_issue_url": "https://issues.example/new", "issues_url": "https://issues.example/:id", "project_url": "https://issues.example"})),
    ("integrations/get-custom-issue-tracker", "project.integrations.get", lambda c: c.p().integrations.get("custom-issue-tracker")),
    ("integrations/disable-custom-issue-tracker", "project.integrations.delete", lambda c: c.p().integrations.delete("custom-issue-tracker")),
    ("projects/list-projects", "projects.list", lambda c: c.gl.projects.list(membership=True)),
    ("projects/list-user-projects", "user.projects.list", lambda c: c.u().projects.list()),
    ("merge-requests/list-merge-requests", "mergerequests.list", lambda c: c.gl.mergerequests.list(state="opened")),
    ("merge-requests/list-project-merge-requests", "project.mergerequests.list", lambda c: c.p().mergerequests.list(state="opened")),
    ("merge-requests/create-merge-request", "project.mergerequests.create", lambda c: c.p().mergerequests.create({"source_branch": c.i["newBranch"], "target_branch": "main", "title": "Add login page", "remove_source_branch": True})),
    ("merge-requests/update-merge-request", "project.mergerequests.update", lambda c: c.p().mergerequests.update(c.i["mergeRequest"], {"title": "New title"})),
    ("merge-requests/delete-merge-request", "project.mergerequests.delete", lambda c: c.p().mergerequests.delete(c.i["deletedMergeRequest"])),
    ("merge-requests/merge", "project.mergerequests.get().merge", lambda c: c.p().mergerequests.get(c.i["mergeRequest"], lazy=True).merge(should_remove_source_branch=False)),
    ("approvals/get-project-approval-settings", "project.approvals.get", lambda c: c.p().approvals.get()),
    ("approvals/update-project-approval-settings", "project.approvals.update", lambda c: c.p().approvals.update(new_data={"reset_approvals_on_push": True})),
    ("approvals/list-project-approval-rules", "project.approvalrules.list", lambda c: c.p().approvalrules.list()),
    ("approvals/create-project-approval-rule", "project.approvalrules.create", lambda c: c.p().approvalrules.create({"name": "security", "approvals_required": 1})),
    ("application/get-settings", "settings.get", lambda c: c.gl.settings.get()),
    ("application/update-settings", "settings.update", lambda c: c.gl.settings.update(new_data={"signup_enabled": False, "cube_api_base_url": "https://cube.example", "cube_api_key": "secret"})),
]

# Operations python-gitlab 3.12 has no object API for, through its generic request methods (paths relative to the
# API root, ids encoded as the object API encodes them).
HTTP_CALLS = [
    ("jobs/get-token-job", "http_get", lambda c: c.as_job().http_get("/job")),
    ("jobs/get-allowed-agents", "http_get", lambda c: c.as_job().http_get("/job/allowed_agents")),
    ("repository/get-file-metadata", "http_head", lambda c: c.gl.http_head(f"{c.file_path()}", query_data={"ref": "main"})),
    ("repository/get-file-blame-metadata", "http_head", lambda c: c.gl.http_head(f"{c.file_path()}/blame", query_data={"ref": "main"})),
    ("repository/get-raw-file-metadata", "http_head", lambda c: c.gl.http_head(f"{c.file_path()}/raw", query_data={"ref": "main"})),
    ("project-import-export/import-relation", "http_post(files)", lambda c: c.gl.http_post("/projects/import-relation", post_data={"path": str(c.i["project"]), "relation": "issues"}, files={"file": ("export.tar.gz", export_file(), "application/gzip")})),
    ("project-import-export/list-relation-imports", "http_get", lambda c: c.gl.http_get(f"/projects/{c.p().encoded_id}/relation-imports")),
    ("bulk-imports/create-migration", "http_post", lambda c: c.gl.http_post("/bulk_imports", post_data={"configuration": {"url": "https://source.example", "access_token": "token"}, "entities": [{"source_type": "group_entity", "source_full_path": "src", "destination_slug": "dst", "destination_namespace": c.i["namespacePath"]}]})),
    ("bulk-imports/list-migrations", "http_list", lambda c: c.gl.http_list("/bulk_imports")),
    ("bulk-imports/list-all-entities", "http_list", lambda c: c.gl.http_list("/bulk_imports/entities")),
    ("bulk-imports/get-migration", "http_get", lambda c: c.gl.http_get(f"/bulk_imports/{c.i['migration']}")),
    ("bulk-imports/list-migration-entities", "http_list", lambda c: c.gl.http_list(f"/bulk_imports/{c.i['migration']}/entities")),
    ("bulk-imports/get-migration-entity", "http_get", lambda c: c.gl.http_get(f"/bulk_imports/{c.i['migration']}/entities/{c.i['entity']}")),
    ("bulk-imports/get-entity-failures", "http_get", lambda c: c.gl.http_get(f"/bulk_imports/{c.i['migration']}/entities/{c.i['entity']}/failures")),
    ("repository/create-changelog", "http_post", lambda c: c.gl.http_post(f"/projects/{c.p().encoded_id}/repository/changelog", post_data={"version": "1.1.0"})),
    ("repository/get-changelog", "http_get", lambda c: c.gl.http_get(f"/projects/{c.p().encoded_id}/repository/changelog", query_data={"version": "1.1.0"})),
    ("users/create-personal-access-token", "http_post", lambda c: c.gl.http_post("/user/personal_access_tokens", post_data={"name": "token", "scopes": ["k8s_proxy"]})),
    ("users/disable-two-factor", "http_request(patch)", lambda c: c.gl.http_request("patch", f"/users/{c.i['twoFactorUser']}/disable_two_factor")),
    ("runners/create-user-runner", "http_post", lambda c: c.gl.http_post("/user/runners", post_data={"runner_type": "group_type", "group_id": c.i["group"]})),
    ("users/upload-avatar", "http_put(files)", lambda c: c.gl.http_put("/user/avatar", files={"avatar": ("avatar.png", io.BytesIO(PNG), "image/png")})),
    ("runners/list-runner-manager-jobs", "http_list", lambda c: c.gl.http_list(f"/runners/{c.i['runner']}/managers/{c.i['runnerManager']}/jobs")),
    ("approvals/create-group-approval-rule", "http_post", lambda c: c.remember("groupApprovalRule", c.gl.http_post(f"/groups/{c.g().encoded_id}/approval_rules", post_data={"name": "security", "approvals_required": 1}))),
    ("approvals/list-group-approval-rules", "http_list", lambda c: c.gl.http_list(f"/groups/{c.g().encoded_id}/approval_rules")),
    ("approvals/update-group-approval-rule", "http_put", lambda c: c.gl.http_put(f"/groups/{c.g().encoded_id}/approval_rules/{c.remembered('groupApprovalRule')}", post_data={"approvals_required": 2})),
    ("approvals/get-project-approval-rule", "http_get", lambda c: c.gl.http_get(f"/projects/{c.p().encoded_id}/approval_rules/{c.i['approvalRule']}")),
    ("application/get-plan-limits", "http_get", lambda c: c.gl.http_get("/application/plan_limits")),
    ("application/update-plan-limits", "http_put", lambda c: c.gl.http_put("/application/plan_limits", post_data={"plan_name": "default", "ci_pipeline_size": 100})),
    ("dependencies/list-project-dependencies", "http_list", lambda c: c.gl.http_list(f"/projects/{c.p().encoded_id}/dependencies")),
    ("product-analytics/load-query", "http_post", lambda c: c.gl.http_post(f"/projects/{c.i['numericProject']}/product_analytics/request/load", post_data=ANALYTICS_QUERY)),
    ("product-analytics/dry-run-query", "http_post", lambda c: c.gl.http_post(f"/projects/{c.i['numericProject']}/product_analytics/request/dry-run", post_data=ANALYTICS_QUERY)),
    ("product-analytics/get-meta", "http_get", lambda c: c.gl.http_get(f"/projects/{c.i['numericProject']}/product_analytics/request/meta")),
    ("error-tracking/create-client-key", "http_post", lambda c: c.remember("clientKey", c.gl.http_post(f"/projects/{c.p().encoded_id}/error_tracking/client_keys"))),
    ("error-tracking/list-client-keys", "http_list", lambda c: c.gl.http_list(f"/projects/{c.p().encoded_id}/error_tracking/client_keys")),
    ("error-tracking/delete-client-key", "http_delete", lambda c: c.gl.http_delete(f"/projects/{c.p().encoded_id}/error_tracking/client_keys/{c.remembered('clientKey')}")),
]

ANALYTICS_QUERY = {"query": {"measures": ["TrackedEvents.count"]}, "queryType": "multi"}

# A 1×1 PNG image.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6b5e10000000049454e44ae426082")


class Caller:
    """The client for one call (one python-gitlab instance per token) and the records the calls name."""

    def __init__(self, settings):
        self.settings = settings
        self.i = settings["ids"]
        self.clients = {}
        self.created = {}
        self.sent = []
        self.gl = None

    def client(self, **credentials):
        """One python-gitlab instance per credential, recording the requests it sends."""
        key = json.dumps(credentials, sort_keys=True)
        if key not in self.clients:
            client = gitlab.Gitlab(self.settings["url"], **credentials)
            client.session.hooks["response"].append(lambda response, *args, **kwargs: self.sent.append(f"{response.request.method} {response.request.path_url} → {response.status_code}"))
            self.clients[key] = client
        return self.clients[key]

    def use(self, operation_id):
        self.gl = self.client(private_token=self.settings.get("tokens", {}).get(operation_id, self.settings["token"]))
        self.sent = []

    def as_job(self):
        """A client authenticated by the job token (`JOB-TOKEN`)."""
        return self.client(job_token=self.settings["jobToken"])

    def remember(self, key, record):
        """Keeps the id of a record a later call names."""
        self.created[key] = record["id"]
        return record

    def remembered(self, key):
        return self.created[key]

    def file_path(self):
        """The path of `file` in the project's repository."""
        return f"/projects/{self.p().encoded_id}/repository/files/{EncodedId(self.i['file'])}"

    def p(self):
        return self.gl.projects.get(self.i["project"], lazy=True)

    def g(self, key="group"):
        return self.gl.groups.get(self.i[key], lazy=True)

    def u(self):
        return self.gl.users.get(self.i["user"], lazy=True)


def main():
    if sys.argv[1:] == ["--list"]:
        print(json.dumps([operation_id for operation_id, _, _ in CALLS + HTTP_CALLS]))
        return
    caller = Caller(json.loads(sys.argv[1]))
    for operation_id, method, call in CALLS + HTTP_CALLS:
        caller.use(operation_id)
        outcome = {"operationId": operation_id, "method": method, "ok": True}
        try:
            call(caller)
        except Exception as error:  # every failure is reported, none stops the run
            outcome.update(ok=False, error=type(error).__name__, message=str(error))
        outcome["requests"] = caller.sent
        print(json.dumps(outcome), flush=True)


main()
