/**
 * Names that survive in editors. openapi-typescript writes each component schema's type inside `components` and adds
 * a root alias of it (`export type Job = components['schemas']['Job']`); an alias of an indexed access names nothing,
 * so hovers and error messages spell the structure out (`WithRequired<{ id?: number; …`). Here the root alias holds
 * the type itself (`export type Job = JobBase & { … }`) and `components` refers to it (`Job: Job`): TypeScript shows
 * a type written in an alias by that alias's name. Aliases rather than interfaces, because an interface is not
 * assignable to `Record<string, unknown>` and would break code that passes a record on as an open object.
 */
import ts from 'typescript';

const f = ts.factory;

interface ComponentSchemaNode {
  member: ts.PropertySignature;
  type: ts.TypeNode;
}

/** Each component schema's member of `components.schemas`, by schema name. */
function componentSchemas(nodes: readonly ts.Node[]): Map<string, ComponentSchemaNode> {
  const components = nodes.find(
    (n): n is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(n) && n.name.text === 'components',
  );
  const schemas = components?.members.find(
    (m): m is ts.PropertySignature => ts.isPropertySignature(m) && ts.isIdentifier(m.name) && m.name.text === 'schemas',
  );
  const found = new Map<string, ComponentSchemaNode>();
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) return found;
  for (const member of schemas.type.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const name = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
    if (name) found.set(name, { member, type: member.type });
  }
  return found;
}

/** The schema name of a root alias (`export type Job = components['schemas']['Job']`, written as raw text). */
function rootAliasOf(node: ts.Node): string | undefined {
  if (!ts.isTypeAliasDeclaration(node) || !ts.isTypeReferenceNode(node.type)) return undefined;
  const { typeName } = node.type;
  return ts.isIdentifier(typeName) ? /^components\['schemas'\]\['(.+)'\]$/.exec(typeName.text)?.[1] : undefined;
}

/** `components` with each member of its `schemas` referring to the schema's root alias. */
function referToAliases(
  components: ts.InterfaceDeclaration,
  aliases: ReadonlyMap<string, string>,
): ts.InterfaceDeclaration {
  const members = components.members.map((member) => {
    if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name) || member.name.text !== 'schemas')
      return member;
    if (!member.type || !ts.isTypeLiteralNode(member.type)) return member;
    const schemas = member.type.members.map((schema) => {
      if (!ts.isPropertySignature(schema)) return schema;
      const name = ts.isIdentifier(schema.name) || ts.isStringLiteral(schema.name) ? schema.name.text : '';
      const alias = aliases.get(name);
      if (!alias) return schema;
      const type = f.createTypeReferenceNode(alias);
      return f.updatePropertySignature(schema, schema.modifiers, schema.name, schema.questionToken, type);
    });
    const type = f.updateTypeLiteralNode(member.type, f.createNodeArray(schemas));
    return f.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, type);
  });
  return f.updateInterfaceDeclaration(
    components,
    components.modifiers,
    components.name,
    components.typeParameters,
    components.heritageClauses,
    members,
  );
}

/** Whether the type is `unknown` (also `(unknown & unknown)` or `unknown | unknown`, which an `if`/`then` member gives). */
function isUnknown(node: ts.TypeNode): boolean {
  if (ts.isParenthesizedTypeNode(node)) return isUnknown(node.type);
  if (ts.isIntersectionTypeNode(node) || ts.isUnionTypeNode(node)) return node.types.every(isUnknown);
  return node.kind === ts.SyntaxKind.UnknownKeyword;
}

/**
 * `X & unknown` written as `X`: the same type, but TypeScript names a type after an alias only when the alias's body
 * is that type, and an intersection that reduces to its object member is not.
 */
function withoutUnknownMembers(node: ts.TypeNode): ts.TypeNode {
  if (!ts.isIntersectionTypeNode(node)) return node;
  const known = node.types.filter((t) => !isUnknown(t));
  if (known.length === node.types.length || known.length === 0) return node;
  return known.length === 1 ? known[0]! : f.createIntersectionTypeNode(known);
}

/**
 * openapi-typescript's nodes with every component schema's type written in its root alias, and `components.schemas`
 * referring to the aliases (by schema name: the alias names). The schema's JSDoc goes with its type.
 */
export function nameSchemaTypes(nodes: readonly ts.Node[]): { nodes: ts.Node[]; aliases: Map<string, string> } {
  const schemas = componentSchemas(nodes);
  const aliases = new Map<string, string>();
  for (const node of nodes) {
    const schema = rootAliasOf(node);
    if (schema && schemas.has(schema)) aliases.set(schema, (node as ts.TypeAliasDeclaration).name.text);
  }
  const named = nodes.map((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'components') return referToAliases(node, aliases);
    const schema = rootAliasOf(node);
    const found = schema ? schemas.get(schema) : undefined;
    if (!found || !ts.isTypeAliasDeclaration(node)) return node;
    const type = withoutUnknownMembers(found.type);
    const alias = f.updateTypeAliasDeclaration(node, node.modifiers, node.name, node.typeParameters, type);
    return ts.setSyntheticLeadingComments(alias, [...(ts.getSyntheticLeadingComments(found.member) ?? [])]);
  });
  return { nodes: named, aliases };
}
