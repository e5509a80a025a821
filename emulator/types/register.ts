// Loads every API type definition (each module registers its types when imported).
import './common';
import './location';
import './network';
import './account';
import './billing';
import './dns';
import './guest';
import './hardware';
import './product';
import './ticket';
import './ssh-key';
