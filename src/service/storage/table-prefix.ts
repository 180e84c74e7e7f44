import {
  IdentifierNode,
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type SchemableIdentifierNode,
} from 'kysely';

class Renamer extends OperationNodeTransformer {
  constructor(private readonly rename: (name: string) => string) {
    super();
  }

  protected override transformSchemableIdentifier(
    node: SchemableIdentifierNode,
    queryId?: QueryId,
  ): SchemableIdentifierNode {
    const transformed = super.transformSchemableIdentifier(node, queryId);
    const name = this.rename(transformed.identifier.name);
    return name === transformed.identifier.name
      ? transformed
      : { ...transformed, identifier: IdentifierNode.create(name) };
  }
}

/**
 * Queries name the service's tables as SQLite does (`verifications`); on PostgreSQL, which the
 * service may share with the BFF, they are `service_verifications` and so on. This renames the
 * given tables wherever a query names them (FROM, JOIN, INTO, `table.column`); raw SQL is not
 * touched.
 */
export function tablePrefix(prefix: string, tables: readonly string[]): KyselyPlugin {
  const known = new Set(tables);
  const renamer = new Renamer((name) => (known.has(name) ? prefix + name : name));
  return {
    transformQuery: (args: PluginTransformQueryArgs) => renamer.transformNode(args.node, args.queryId),
    transformResult: async (args: PluginTransformResultArgs) => args.result,
  };
}
