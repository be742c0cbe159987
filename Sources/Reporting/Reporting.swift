import Audit
