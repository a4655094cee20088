// The driver of openapi-generator's `go` client: argv = the fake's base URL, the driver input (test/polyglot/README.md).
package main

import (
	"context"
	"errors"
	"fmt"

	api "github.com/GIT_USER_ID/GIT_REPO_ID"

	"polyglotdriver/polyglot"
)

func main() {
	baseURL, spec := polyglot.ReadArguments()
	enums := map[string][]string{}
	for _, value := range api.AllowedJobStatusEnumValues {
		enums["JobStatus"] = append(enums["JobStatus"], string(value))
	}
	for _, value := range api.AllowedMergeRequestStateEnumValues {
		enums["MergeRequestState"] = append(enums["MergeRequestState"], string(value))
	}
	polyglot.ModelChecks(spec, polyglot.Models{
		New:   models,
		Enums: enums,
		JobID: func(job any) int64 { return job.(*api.Job).GetId() },
	})

	configuration := api.NewConfiguration()
	configuration.Servers = api.ServerConfigurations{{URL: baseURL}}
	client := api.NewAPIClient(configuration)
	ctx := context.WithValue(context.Background(), api.ContextAPIKeys, map[string]api.APIKey{
		"privateTokenHeader": {Key: "maintainer-token"},
	})
	create := func(source, target, title string) (*api.MergeRequest, error) {
		body := api.NewCreateMergeRequestRequest(source, target, title)
		created, _, err := client.MergeRequestsAPI.MergeRequestsCreateMergeRequest(ctx, polyglot.Project).
			CreateMergeRequestRequest(*body).Execute()
		return created, err
	}
	polyglot.CallSequence(polyglot.Calls{
		ListJobs: func() (int, error) {
			jobs, _, err := client.JobsAPI.JobsListProjectJobs(ctx, polyglot.Project).Execute()
			return len(jobs), err
		},
		Create: func(source, target, title string) (int64, error) {
			created, err := create(source, target, title)
			if err != nil {
				return 0, err
			}
			return polyglot.Field[int64](created, "iid"), nil
		},
		Page: func(number int64) ([]int64, error) {
			page, _, err := client.MergeRequestsAPI.MergeRequestsListProjectMergeRequests(ctx, polyglot.Project).
				Page(number).PerPage(2).Execute()
			iids := make([]int64, len(page))
			for i, item := range page {
				iids[i] = polyglot.Field[int64](item, "iid")
			}
			return iids, err
		},
		Merge: func(iid int64) (string, error) {
			merged, _, err := client.MergeRequestsAPI.MergeRequestsMerge(ctx, polyglot.Project, iid).Execute()
			if err != nil {
				return "", err
			}
			return polyglot.Field[string](merged, "state"), nil
		},
		Conflict: func(source, target, title string) (bool, string) {
			_, err := create(source, target, title)
			var apiError *api.GenericOpenAPIError
			if !errors.As(err, &apiError) {
				return false, fmt.Sprintf("no *GenericOpenAPIError: %v", err)
			}
			return apiError.Error() == "409 Conflict", fmt.Sprintf("*GenericOpenAPIError %q", apiError.Error())
		},
	})
}
