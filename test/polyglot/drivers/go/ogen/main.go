// The driver of ogen's client: argv = the fake's base URL, the driver input (test/polyglot/README.md).
//
// ogen skips the operations whose shapes it does not implement (the `operations` check lists them), and the
// merge-request lists are among them today. So the calls go through call(), which finds the client's method by
// name and builds its arguments from JSON and from the parameters' Go fields: the driver compiles whatever ogen
// generated, reports an operation it skipped as a failure, and calls it once ogen generates it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/ogen-go/ogen/ogenerrors"

	api "serviceapi/serviceapi"

	"polyglotdriver/polyglot"
)

// token answers ogen's security source: the private-token header, no other scheme.
type token struct{}

func (token) PrivateTokenHeader(context.Context, api.OperationName) (api.PrivateTokenHeader, error) {
	return api.PrivateTokenHeader{APIKey: "maintainer-token"}, nil
}

func (token) BearerToken(context.Context, api.OperationName) (api.BearerToken, error) {
	return api.BearerToken{}, ogenerrors.ErrSkipClientSecurity
}

func (token) JobTokenHeader(context.Context, api.OperationName) (api.JobTokenHeader, error) {
	return api.JobTokenHeader{}, ogenerrors.ErrSkipClientSecurity
}

func (token) JobTokenQuery(context.Context, api.OperationName) (api.JobTokenQuery, error) {
	return api.JobTokenQuery{}, ogenerrors.ErrSkipClientSecurity
}

func (token) OauthAccessTokenQuery(context.Context, api.OperationName) (api.OauthAccessTokenQuery, error) {
	return api.OauthAccessTokenQuery{}, ogenerrors.ErrSkipClientSecurity
}

func (token) PrivateTokenQuery(context.Context, api.OperationName) (api.PrivateTokenQuery, error) {
	return api.PrivateTokenQuery{}, ogenerrors.ErrSkipClientSecurity
}

func (token) SessionCookie(context.Context, api.OperationName) (api.SessionCookie, error) {
	return api.SessionCookie{}, ogenerrors.ErrSkipClientSecurity
}

func main() {
	baseURL, spec := polyglot.ReadArguments()
	polyglot.ModelChecks(spec, polyglot.Models{
		New:         models,
		Enums:       enumConstants,
		JobID:       func(job any) int64 { return job.(*api.Job).ID },
		RefusesNull: true,
	})

	client, err := api.NewClient(baseURL, token{})
	if err != nil {
		panic(err)
	}
	operations := operations{client: client, ctx: context.Background()}
	create := func(source, target, title string) (any, error) {
		body := map[string]string{"source_branch": source, "target_branch": target, "title": title}
		return operations.call("MergeRequestsCreateMergeRequest", body, map[string]any{"ID": polyglot.Project})
	}
	polyglot.CallSequence(polyglot.Calls{
		ListJobs: func() (int, error) {
			jobs, err := client.JobsListProjectJobs(operations.ctx, api.JobsListProjectJobsParams{ID: polyglot.Project})
			if err != nil {
				return 0, err
			}
			listed, ok := jobs.(*api.JobsListProjectJobsOKHeaders)
			if !ok {
				return 0, fmt.Errorf("%T instead of the job list", jobs)
			}
			return len(listed.Response), nil
		},
		Create: func(source, target, title string) (int64, error) {
			created, err := create(source, target, title)
			if err != nil {
				return 0, err
			}
			return polyglot.Field[int64](created, "iid"), nil
		},
		Page: func(number int64) ([]int64, error) {
			page, err := operations.call("MergeRequestsListProjectMergeRequests", nil,
				map[string]any{"ID": polyglot.Project, "Page": number, "PerPage": int32(2)})
			if err != nil {
				return nil, err
			}
			var items []map[string]json.RawMessage
			encoded, _ := json.Marshal(page)
			if err := json.Unmarshal(encoded, &items); err != nil {
				return nil, fmt.Errorf("%T is no list: %v", page, err)
			}
			iids := make([]int64, len(items))
			for i, item := range items {
				iids[i] = polyglot.Field[int64](item, "iid")
			}
			return iids, nil
		},
		Merge: func(iid int64) (string, error) {
			merged, err := operations.call("MergeRequestsMerge", map[string]any{},
				map[string]any{"ID": polyglot.Project, "MergeRequestIid": iid})
			if err != nil {
				return "", err
			}
			return polyglot.Field[string](merged, "state"), nil
		},
		// ogen returns no Go error for an answer the document describes: its error type is the operation's typed
		// response for that status (`…Conflict`, the document's ErrorBody).
		Conflict: func(source, target, title string) (bool, string) {
			_, err := create(source, target, title)
			var answer *documented
			if !errors.As(err, &answer) {
				return false, fmt.Sprintf("no documented error answer: %v", err)
			}
			message := polyglot.Field[any](answer.value, "message")
			return strings.HasSuffix(answer.kind, "Conflict") && message != nil,
				fmt.Sprintf("%s with message %v", answer.kind, message)
		},
	})
}

// documented is a non-2xx answer the document describes: ogen returns it as a typed response, not an error.
type documented struct {
	kind  string
	value any
}

func (d *documented) Error() string { return d.kind }

type operations struct {
	client *api.Client
	ctx    context.Context
}

// call calls the client's method for an operation: its request body from body's JSON (nil: none), its parameters
// struct with params set by Go field name. A 2xx answer's payload is returned; another documented answer is a
// *documented error.
func (o operations) call(method string, body any, params map[string]any) (any, error) {
	function := reflect.ValueOf(o.client).MethodByName(method)
	if !function.IsValid() {
		return nil, fmt.Errorf("ogen generated no %s: it skipped the operation (see the operations check)", method)
	}
	kind := function.Type()
	arguments := []reflect.Value{reflect.ValueOf(o.ctx)}
	for i := 1; i < kind.NumIn(); i++ {
		argument, err := buildArgument(kind.In(i), body, params)
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", method, i, err)
		}
		arguments = append(arguments, argument)
	}
	results := function.Call(arguments)
	if failure, _ := results[1].Interface().(error); failure != nil {
		return nil, failure
	}
	return payload(results[0].Interface())
}

func buildArgument(kind reflect.Type, body any, params map[string]any) (reflect.Value, error) {
	if strings.HasSuffix(kind.Name(), "Params") {
		value := reflect.New(kind).Elem()
		for name, given := range params {
			if err := setField(value, name, given); err != nil {
				return value, err
			}
		}
		return value, nil
	}
	encoded, _ := json.Marshal(body)
	target := reflect.New(kind)
	if kind.Kind() == reflect.Pointer {
		target.Elem().Set(reflect.New(kind.Elem()))
		return target.Elem(), json.Unmarshal(encoded, target.Elem().Interface())
	}
	return target.Elem(), json.Unmarshal(encoded, target.Interface())
}

// setField sets a parameter: its own type, or through SetTo for ogen's optional wrappers (OptInt64, …).
func setField(params reflect.Value, name string, given any) error {
	field := params.FieldByName(name)
	if !field.IsValid() {
		return fmt.Errorf("no parameter field %s in %s", name, params.Type())
	}
	value := reflect.ValueOf(given)
	if setTo := field.Addr().MethodByName("SetTo"); setTo.IsValid() {
		setTo.Call([]reflect.Value{value.Convert(setTo.Type().In(0))})
		return nil
	}
	field.Set(value.Convert(field.Type()))
	return nil
}

// payload is a 2xx answer's body (ogen wraps a body with headers in a struct whose Response field holds it); any
// other answer is a *documented error.
func payload(result any) (any, error) {
	value := reflect.ValueOf(result)
	name := reflect.Indirect(value).Type().Name()
	for _, failure := range []string{"BadRequest", "Unauthorized", "Forbidden", "NotFound", "MethodNotAllowed",
		"Conflict", "UnprocessableEntity", "TooManyRequests", "InternalServerError", "ServiceUnavailable"} {
		if strings.HasSuffix(name, failure) {
			return nil, &documented{kind: name, value: result}
		}
	}
	if inner := reflect.Indirect(value); inner.Kind() == reflect.Struct {
		if response := inner.FieldByName("Response"); response.IsValid() {
			return response.Interface(), nil
		}
	}
	return result, nil
}
