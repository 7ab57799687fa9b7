import {
  BinaryOperationNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  ValueListNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

function isEmptyList(node: OperationNode): boolean {
  return (PrimitiveValueListNode.is(node) || ValueListNode.is(node)) && node.values.length === 0;
}

class EmptyListTransformer extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode, queryId?: QueryId): BinaryOperationNode {
    const operator = node.operator;
    if (OperatorNode.is(operator) && (operator.operator === 'in' || operator.operator === 'not in') && isEmptyList(node.rightOperand)) {
      // `x in ()` holds for no row and `x not in ()` for every row, written so that both dialects parse it.
      return BinaryOperationNode.create(ValueNode.createImmediate(1), OperatorNode.create('='), ValueNode.createImmediate(operator.operator === 'in' ? 0 : 1));
    }
    return super.transformBinaryOperation(node, queryId);
  }
}

/**
 * `where(column, 'in', [])` compiles to `column in ()`: SQLite reads it as false, PostgreSQL refuses
 * it as a syntax error, so every query built from a list that may be empty (a lockfile with no
 * registry package) failed on PostgreSQL alone. This plugin, installed where the database opens,
 * gives the empty list its meaning on both dialects, so no call site has to remember it.
 */
export class EmptyListPlugin implements KyselyPlugin {
  readonly #transformer = new EmptyListTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
