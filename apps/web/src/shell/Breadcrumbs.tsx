import { Fragment } from 'react';
import { Breadcrumb } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { Crumb } from './route-handle';

export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <Breadcrumb.Root aria-label="Breadcrumb" size="sm" px={{ base: '4', md: '6' }} py="2" borderBottomWidth="1px" bg="bg.panel">
      <Breadcrumb.List>
        {crumbs.map((crumb, index) => (
          <Fragment key={crumb.pathname + crumb.label}>
            {index > 0 && <Breadcrumb.Separator />}
            <Breadcrumb.Item>
              {index === crumbs.length - 1 ? (
                <Breadcrumb.CurrentLink aria-current="page">{crumb.label}</Breadcrumb.CurrentLink>
              ) : (
                <Breadcrumb.Link asChild>
                  <RouterLink to={crumb.pathname}>{crumb.label}</RouterLink>
                </Breadcrumb.Link>
              )}
            </Breadcrumb.Item>
          </Fragment>
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}
