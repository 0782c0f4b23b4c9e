import { Model } from 'kiln-framework'

/** An order, owned by a user: the example of a channel bound to a model. */
export class Order extends Model {
  static table = 'orders'
  static fillable = ['user_id', 'status']
  declare id: number
  declare user_id: number
  declare status: string
}
