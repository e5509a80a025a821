// Loads every service (each module registers itself when imported) and the API types they use.
import '../types/register';
import './account';
import './billing-item';
import './catalog-services';
import './dns';
import './product-order';
import './ssh-key';
import './ticket';
import './user-customer';
import './virtual-guest';
