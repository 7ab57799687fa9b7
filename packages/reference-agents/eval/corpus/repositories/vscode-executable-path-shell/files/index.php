<?php
echo "hello";
