/**
 * swagger-typescript-api as a team needs it (README.md, "Settings a team needs"): without this hook the client puts
 * a path id such as `my-group/my-project` into the URL as two segments (acacode/swagger-typescript-api#446, #745).
 */
export default {
  hooks: {
    onInsertPathParam: (paramName: string) => `encodeURIComponent(${paramName})`,
  },
};
