// The driver of oapi-codegen's client (`-generate types,client`): argv = the fake's base URL, the driver input
// (test/polyglot/README.md). Its models are plain structs decoded by encoding/json, which refuses neither a missing
// required field nor a null in a non-null one; the required check says so (expected-failures.json).
package main

import (
	"context"
	"fmt"
	"net/http"

	api "serviceapi/serviceapi"

	"polyglotdriver/polyglot"
)

func main() {
	baseURL, spec := polyglot.ReadArguments()
	polyglot.ModelChecks(spec, polyglot.Models{
		New:   models,
		Enums: enumConstants,
		JobID: func(job any) int64 { return job.(*api.Job).Id },
	})

	client, err := api.NewClientWithResponses(baseURL, api.WithRequestEditorFn(
		func(_ context.Context, request *http.Request) error {
			request.Header.Set("PRIVATE-TOKEN", "maintainer-token")
			return nil
		}))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	create := func(source, target, title string) (*api.MergeRequestscreateMergeRequestResponse, error) {
		return client.MergeRequestscreateMergeRequestWithResponse(ctx, polyglot.Project,
			&api.MergeRequestscreateMergeRequestParams{},
			api.CreateMergeRequestRequest{SourceBranch: source, TargetBranch: target, Title: title})
	}
	polyglot.CallSequence(polyglot.Calls{
		ListJobs: func() (int, error) {
			jobs, err := client.JobslistProjectJobsWithResponse(ctx, polyglot.Project, &api.JobslistProjectJobsParams{})
			if err != nil {
				return 0, err
			}
			if jobs.JSON200 == nil {
				return 0, fmt.Errorf("%s: %s", jobs.Status(), jobs.Body)
			}
			return len(*jobs.JSON200), nil
		},
		Create: func(source, target, title string) (int64, error) {
			created, err := create(source, target, title)
			if err != nil {
				return 0, err
			}
			if created.JSON201 == nil {
				return 0, fmt.Errorf("%s: %s", created.Status(), created.Body)
			}
			return created.JSON201.Iid, nil
		},
		Page: func(number int64) ([]int64, error) {
			perPage := api.PerPage(2)
			page, err := client.MergeRequestslistProjectMergeRequestsWithResponse(ctx, polyglot.Project,
				&api.MergeRequestslistProjectMergeRequestsParams{Page: &number, PerPage: &perPage})
			if err != nil {
				return nil, err
			}
			if page.JSON200 == nil {
				return nil, fmt.Errorf("%s: %s", page.Status(), page.Body)
			}
			iids := make([]int64, len(*page.JSON200))
			for i, item := range *page.JSON200 {
				iids[i] = polyglot.Field[int64](item, "iid")
			}
			return iids, nil
		},
		Merge: func(iid int64) (string, error) {
			merged, err := client.MergeRequestsmergeWithResponse(ctx, polyglot.Project, iid,
				&api.MergeRequestsmergeParams{}, api.MergeMergeRequestRequest{})
			if err != nil {
				return "", err
			}
			if merged.JSON200 == nil {
				return "", fmt.Errorf("%s: %s", merged.Status(), merged.Body)
			}
			return polyglot.Field[string](merged.JSON200, "state"), nil
		},
		// oapi-codegen returns no Go error for an answer the document describes: its error type is the response's
		// typed field for the status, here JSON409 (the document's ErrorBody).
		Conflict: func(source, target, title string) (bool, string) {
			answer, err := create(source, target, title)
			if err != nil {
				return false, fmt.Sprintf("transport error instead of a 409: %v", err)
			}
			if answer.JSON409 == nil {
				return false, fmt.Sprintf("no JSON409: %s %s", answer.Status(), answer.Body)
			}
			message := polyglot.Field[any](answer.JSON409, "message")
			return answer.StatusCode() == 409 && message != nil,
				fmt.Sprintf("%s, JSON409 *ErrorBody with message %v", answer.Status(), message)
		},
	})
}
